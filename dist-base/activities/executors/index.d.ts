import type { WorkerExecutorKind } from '../../plan/schema';
import type { Executor } from './types';
export * from './types';
/**
 * The kinds teamrun ships to run on a worker. A worker enables the ones its config lists, plus any
 * it is given in code.
 */
export declare const builtinExecutors: Readonly<Record<WorkerExecutorKind, Executor>>;
export declare function executorRegistry(enabled: ReadonlyArray<WorkerExecutorKind>, custom?: Record<string, Executor>): Map<string, Executor>;
