export { createWorker, prebuiltWorkflowBundle, workflowsPath, type CreateWorkerOptions } from './create-worker';
export { defineExecutor, type DefinedExecutor, type SpecSchema } from './define-executor';
export { runWorker } from './main';
export { WORKFLOW_TRACING_MODULE } from './tracing';
export {
  defineTool,
  type CustomTool,
  type DefinedTool,
  type ToolCallResult,
  type ToolContext,
  type ToolSpec,
  type Toolbox,
  type ToolboxFactory,
} from '../activities/tools';
export {
  ExecutorError,
  attemptEnv,
  type Executor,
  type ExecutorContext,
  type ExecutorResult,
} from '../activities/executors/types';
export { MailboxRefused, type MailboxAccess } from '../activities/executors/mailbox-access';
export type { WorkerModels } from '../activities/executors/model/provider';
export type { LiveOutput, PartialOutput } from '../activities/executors/live';
export { BUILTIN_EXECUTORS, loadConfig, type TeamrunConfig } from '../config/config';
export {
  HOOK_TIMEOUT_DEFAULT_MS,
  type HookAttempt,
  type TaskRefusal,
  type TaskSettlement,
  type WorkerHooks,
} from '../activities/host-hooks';
