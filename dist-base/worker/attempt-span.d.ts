import type { ActivityInterceptorsFactory } from '@temporalio/worker';
/**
 * With tracing on, each `runTask` runs inside its attempt's span (after Temporal's own interceptor,
 * which continues the run's trace from the activity's headers). Other activities pass through.
 */
export declare function attemptSpans(workerIdentity: string): ActivityInterceptorsFactory;
