import type { WorkerExecutorKind } from '../../plan/schema';
import { agentExecutor } from './agent';
import { agentCliExecutor } from './agent-cli';
import { sleepExecutor, noopExecutor } from './basic';
import { httpExecutor } from './http';
import { llmExecutor } from './llm';
import { shellExecutor } from './shell';
import type { Executor } from './types';

export * from './types';

/**
 * The kinds teamrun ships to run on a worker. A worker enables the ones its config lists, plus any
 * it is given in code.
 */
export const builtinExecutors: Readonly<Record<WorkerExecutorKind, Executor>> = {
  shell: shellExecutor,
  http: httpExecutor,
  llm: llmExecutor,
  agent: agentExecutor,
  sleep: sleepExecutor,
  noop: noopExecutor,
  'agent-cli': agentCliExecutor,
};

export function executorRegistry(
  enabled: ReadonlyArray<WorkerExecutorKind>,
  custom: Record<string, Executor> = {},
): Map<string, Executor> {
  const registry = new Map<string, Executor>();
  for (const kind of enabled) registry.set(kind, builtinExecutors[kind]);
  for (const [kind, executor] of Object.entries(custom)) registry.set(kind, executor);
  return registry;
}
