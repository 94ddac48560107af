import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TeamrunError } from '../../src';
import { ContainmentError } from '../../src/activities/executors/process-tree';
import { HostRefused } from '../../src/activities/executors/http-guard';
import { ExecutorError } from '../../src/activities/executors/types';
import { CliError } from '../../src/operator/context';
import { classifyFailure } from '../../src/cli/failure';
import { RunsFilterError } from '../../src/client/runs';
import { ScheduleError } from '../../src/client/schedules';
import { CodecError } from '../../src/codec';
import { ConfigError } from '../../src/config/config';
import { TemporalBinaryNotFound } from '../../src/devserver/binary';
import { FencedStoreDriverMissing, FencedWriteRejected, InvalidFencingToken } from '../../src/fenced';
import { ReportError } from '../../src/report';
import { TeamControlError } from '../../src/plan/requests/control';
import { LedgerRequestError } from '../../src/plan/requests/ledger';
import { AttemptNotStarted } from '../../src/ledger/run-ledger';

function nodeError(): Error {
  try {
    readFileSync('/nonexistent/teamrun/plan.yaml');
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected ENOENT');
}

describe("the CLI: a TeamrunError is the user's error, anything else is a bug", () => {
  it("given a TeamrunError, it prints the message alone and exits 1 with the error's code", () => {
    const failure = classifyFailure(new ConfigError('teamrun.yaml: invalid config'));
    expect(failure).toEqual({
      kind: 'user-error',
      code: 'InvalidConfig',
      exitCode: 1,
      output: 'teamrun: teamrun.yaml: invalid config\n',
    });
  });

  it("given a CliError, it exits with the CliError's exit code", () => {
    const failure = classifyFailure(new CliError('stale token', 3));
    expect(failure).toMatchObject({ kind: 'user-error', exitCode: 3, output: 'teamrun: stale token\n' });
  });

  it('given a plain Error, it is a bug: printed with its stack, exit 1', () => {
    const bug = new Error('cannot read properties of undefined');
    expect(classifyFailure(bug)).toEqual({ kind: 'bug', exitCode: 1, output: `teamrun: ${bug.stack}\n` });
  });

  it("given Node's ENOENT, it is a bug too, though it carries a string code", () => {
    const enoent = nodeError();
    expect((enoent as NodeJS.ErrnoException).code).toBe('ENOENT');
    const failure = classifyFailure(enoent);
    expect(failure.kind).toBe('bug');
    expect(failure.output).toMatch(/\n\s+at /);
  });

  it('given something thrown that is no Error, it is a bug printed as a string', () => {
    expect(classifyFailure('boom')).toEqual({ kind: 'bug', exitCode: 1, output: 'teamrun: boom\n' });
  });
});

describe('every teamrun error class is a TeamrunError with a stable code', () => {
  const cases: Array<[string, TeamrunError, string]> = [
    ['AttemptNotStarted', new AttemptNotStarted(null, 'stopped'), 'attempt_not_started'],
    ['CliError', new CliError('bad flag'), 'cli_error'],
    ['CodecError', new CodecError('codec-key-invalid', 'bad key'), 'codec-key-invalid'],
    ['ConfigError', new ConfigError('bad config'), 'InvalidConfig'],
    ['ContainmentError', new ContainmentError('no cgroup'), 'TeamShellContainment'],
    ['ExecutorError', new ExecutorError('failed'), 'TeamExecutorFailed'],
    ['ExecutorError with a type', new ExecutorError('refused', { type: 'TeamHttpHostRefused' }), 'TeamHttpHostRefused'],
    ['FencedStoreDriverMissing', new FencedStoreDriverMissing(), 'FENCED_SQLITE_MISSING'],
    ['FencedWriteRejected', new FencedWriteRejected('report', 1, 2), 'FENCED_WRITE_REJECTED'],
    ['HostRefused', new HostRefused('10.0.0.1: refused'), 'TEAMRUN_HOST_REFUSED'],
    ['InvalidFencingToken', new InvalidFencingToken('x', '--token'), 'FENCED_INVALID_TOKEN'],
    ['LedgerRequestError', new LedgerRequestError('bad request'), 'invalid_ledger_request'],
    ['ReportError', new ReportError('not_found', 'no run'), 'not_found'],
    ['RunsFilterError', new RunsFilterError('bad filter'), 'invalid_filter'],
    ['ScheduleError', new ScheduleError('invalid_spec', 'bad cron'), 'invalid_spec'],
    ['TeamControlError', new TeamControlError('not_found', 'no task'), 'not_found'],
    ['TemporalBinaryNotFound', new TemporalBinaryNotFound('no temporal'), 'TemporalBinaryNotFound'],
  ];

  it.each(cases)('%s', (_name, error, code) => {
    expect(error).toBeInstanceOf(TeamrunError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(classifyFailure(error)).toMatchObject({ kind: 'user-error', code });
  });
});
