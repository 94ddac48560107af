export { createActivities, type ActivityDeps } from './run-task';
export * from './interface';
export * from './executors';
