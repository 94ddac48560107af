import { DefaultFailureConverter } from '@temporalio/common';
/**
 * With the codec on, a failure's message and stack trace (a shell task's output tail, an error
 * body) go into an encoded payload instead of plain proto fields, so the codec encrypts them too.
 * Loaded by path (`failureConverterPath`): workers and the workflow bundle both need it.
 */
export declare const failureConverter: DefaultFailureConverter;
