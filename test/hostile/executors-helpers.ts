import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ApplicationFailure, DefaultFailureConverter, defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import { onTestFinished } from 'vitest';
import type { AttemptEvidence, RunTaskResult } from '../../src/activities/interface';
import { temporalAddress, temporalBinary, waitFor } from '../helpers/env';

/** What one attempt reported, as its history records it: the result, or the evidence of its failure or cancellation. */
export interface AttemptReport {
  activityId: string;
  outcome: 'completed' | 'failed' | 'cancelled' | 'timed-out';
  report: RunTaskResult | AttemptEvidence | undefined;
  failure: { message: string; type: string | null; nonRetryable: boolean } | null;
}

const failures = new DefaultFailureConverter();
const decode = <T>(payloads: { payloads?: Payload[] | null } | null | undefined): T | undefined => {
  const payload = payloads?.payloads?.[0];
  return payload ? defaultPayloadConverter.fromPayload<T>(payload) : undefined;
};

export async function attemptReports(handle: WorkflowHandle): Promise<AttemptReport[]> {
  const history = await handle.fetchHistory();
  const ids = new Map<string, string>();
  const reports: AttemptReport[] = [];
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    // Attempts only: `stopAttempts` (the stop sent to a worker's own queue) is plumbing.
    if (scheduled && scheduled.activityType?.name !== 'stopAttempts')
      ids.set(String(event.eventId), scheduled.activityId ?? '');
    const closed = [
      event.activityTaskCompletedEventAttributes,
      event.activityTaskFailedEventAttributes,
      event.activityTaskCanceledEventAttributes,
      event.activityTaskTimedOutEventAttributes,
    ].find(Boolean);
    if (closed && !ids.has(String(closed.scheduledEventId))) continue;
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) {
      reports.push({
        activityId: ids.get(String(completed.scheduledEventId))!,
        outcome: 'completed',
        report: decode(completed.result),
        failure: null,
      });
    }
    const failed = event.activityTaskFailedEventAttributes;
    if (failed) {
      const error = failures.failureToError(failed.failure!, defaultPayloadConverter);
      const app = error instanceof ApplicationFailure ? error : undefined;
      reports.push({
        activityId: ids.get(String(failed.scheduledEventId))!,
        outcome: 'failed',
        report: app?.details?.[0] as AttemptEvidence | undefined,
        failure: { message: error.message, type: app?.type ?? null, nonRetryable: app?.nonRetryable === true },
      });
    }
    const cancelled = event.activityTaskCanceledEventAttributes;
    if (cancelled) {
      reports.push({
        activityId: ids.get(String(cancelled.scheduledEventId))!,
        outcome: 'cancelled',
        report: decode(cancelled.details),
        failure: null,
      });
    }
    const timedOut = event.activityTaskTimedOutEventAttributes;
    if (timedOut)
      reports.push({
        activityId: ids.get(String(timedOut.scheduledEventId))!,
        outcome: 'timed-out',
        report: undefined,
        failure: null,
      });
  }
  return reports;
}

const exec = promisify(execFile);

/** `temporal workflow show -o json`: the run's whole history as an operator reads it. */
export async function temporalShow(workflowId: string): Promise<string> {
  const { stdout } = await exec(
    temporalBinary(),
    ['workflow', 'show', '--address', temporalAddress(), '-w', workflowId, '-o', 'json'],
    {
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  return stdout;
}

/** `temporal workflow describe -o json`: pending activities with their last heartbeat details. */
export async function temporalDescribe(workflowId: string): Promise<string> {
  const { stdout } = await exec(
    temporalBinary(),
    ['workflow', 'describe', '--address', temporalAddress(), '-w', workflowId, '-o', 'json'],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return stdout;
}

export function tempDir(prefix = 'teamrun-hostile-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Pids a task wrote to files in `dir`, once they are all there. */
export function pidsIn(dir: string, files: string[], timeoutMs = 30_000): Promise<number[]> {
  return waitFor(
    `pids in ${files.join(', ')}`,
    () => {
      try {
        const pids = files.map((f) => Number(readFileSync(path.join(dir, f), 'utf8').trim()));
        return pids.every((p) => p > 0) ? pids : null;
      } catch {
        return null;
      }
    },
    timeoutMs,
    50,
  );
}
