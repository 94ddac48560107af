export { createWorker, workflowsPath, type CreateWorkerOptions } from './create-worker';
