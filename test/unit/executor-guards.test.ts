import { describe, expect, it } from 'vitest';
import { HostPolicy } from '../../src/activities/executors/http-guard';
import { checkCommand, globMatcher, shellEnvironment } from '../../src/activities/executors/shell-env';
import type { ExecutorContext } from '../../src/activities/executors/types';
import { ConfigSchema, type TeamrunConfig } from '../../src/config/config';

describe('worker.http.allowHosts', () => {
  const strict = new HostPolicy({ allowHosts: [], allowPublic: true });

  it('refuses loopback, private, link-local (cloud metadata) and mapped addresses by default, naming the key to change', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(strict.refusal('svc.internal', 80, ip)).toContain('worker.http.allowHosts');
    }
    expect(strict.refusal('example.com', 443, '93.184.215.14')).toBeNull();
  });

  it('allows what an entry names: a host, a host:port, a wildcard domain, an address or a CIDR', () => {
    const policy = new HostPolicy({
      allowHosts: ['localhost', 'db.internal:5432', '*.corp.example', '10.0.0.7', '192.168.0.0/16', '[::1]:8080'],
      allowPublic: false,
    });
    expect(policy.refusal('localhost', 3000, '127.0.0.1')).toBeNull();
    expect(policy.refusal('db.internal', 5432, '10.9.9.9')).toBeNull();
    expect(policy.refusal('db.internal', 22, '10.9.9.9')).toContain('10.9.9.9');
    expect(policy.refusal('api.corp.example', 443, '10.1.1.1')).toBeNull();
    expect(policy.refusal('x', 80, '10.0.0.7')).toBeNull();
    expect(policy.refusal('x', 80, '192.168.44.1')).toBeNull();
    expect(policy.refusal('::1', 8080, '::1')).toBeNull();
    expect(policy.refusal('::1', 9090, '::1')).not.toBeNull();
    // allowPublic false: a public address needs an entry too.
    expect(policy.refusal('example.com', 443, '93.184.215.14')).toContain('worker.http.allowPublic is false');
  });
});

describe('worker.shell.passEnv globs and allowCommands patterns', () => {
  it('matches names exactly or by * and ? globs', () => {
    const matches = globMatcher(['AWS_*', 'GIT_?', 'LANG']);
    expect(['AWS_REGION', 'GIT_A', 'LANG'].every(matches)).toBe(true);
    expect(['AWS', 'GIT_AB', 'LANGUAGE', 'XAWS_REGION'].some(matches)).toBe(false);
  });

  it('runs a command only when a pattern matches all of it', () => {
    expect(() => checkCommand('npm test', ['npm test', '/make( [a-z-]+)*/'])).not.toThrow();
    expect(() => checkCommand('make build docs', ['/make( [a-z-]+)*/'])).not.toThrow();
    expect(() => checkCommand('make build; curl evil', ['/make( [a-z-]+)*/'])).toThrow(
      /matches none of worker\.shell\.allowCommands/,
    );
    expect(() => checkCommand('anything', [])).toThrow(/empty: no command may run/);
    expect(() => checkCommand('anything', undefined)).not.toThrow();
  });
});

describe('the environment of a shell task', () => {
  const ctx = (shell: Partial<TeamrunConfig['worker']['shell']>, env: NodeJS.ProcessEnv) => {
    const config = ConfigSchema.parse({ worker: { shell } });
    return {
      workflowId: 'wf',
      taskKey: 'k',
      attempt: 1,
      fencingToken: 7,
      leaseId: 'wf/k/1',
      holder: 'teammate-1',
      config,
      env,
    } as unknown as ExecutorContext;
  };
  const workerEnv = {
    PATH: '/bin',
    HOME: '/home/w',
    LC_ALL: 'C',
    AWS_REGION: 'eu',
    AWS_SECRET_ACCESS_KEY: 'aws-secret',
    GITHUB_TOKEN: 'ghp_x',
    OPENAI_API_KEY: 'sk-x',
  };

  it('passes the base variables, passEnv globs, the plan values and secretEnv taken by name, and nothing else', () => {
    const env = shellEnvironment(
      { REGION: 'plan', TOKEN: { fromWorkerEnv: 'GITHUB_TOKEN' } },
      ctx({ passEnv: ['AWS_R*'], secretEnv: ['GITHUB_TOKEN'] }, workerEnv),
      {},
    );
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/w',
      LC_ALL: 'C',
      AWS_REGION: 'eu',
      REGION: 'plan',
      TOKEN: 'ghp_x',
      TEAMRUN_WORKFLOW_ID: 'wf',
      TEAMRUN_TASK_KEY: 'k',
      TEAMRUN_ATTEMPT: '1',
      TEAMRUN_FENCING_TOKEN: '7',
      TEAMRUN_LEASE_ID: 'wf/k/1',
      TEAMRUN_HOLDER: 'teammate-1',
    });
  });

  it('gives a task no Temporal address or credential unless the operator opts in (worker.shell.temporalEnv)', () => {
    const withTemporal = { ...workerEnv, TEMPORAL_API_KEY: 'tk', TEMPORAL_ADDRESS: 'frontend:7233' };
    const closed = shellEnvironment(undefined, ctx({ passEnv: ['TEMPORAL_*'] }, withTemporal), {});
    expect(Object.keys(closed).filter((name) => name.startsWith('TEMPORAL_'))).toEqual([]);
    const open = shellEnvironment(undefined, ctx({ passEnv: ['TEMPORAL_*'], temporalEnv: true }, withTemporal), {});
    expect(open).toMatchObject({
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_API_KEY: 'tk',
    });
  });

  it('refuses a worker variable the operator did not list in secretEnv, or one the worker does not have', () => {
    expect(() =>
      shellEnvironment({ K: { fromWorkerEnv: 'OPENAI_API_KEY' } }, ctx({ passEnv: ['OPENAI_API_KEY'] }, workerEnv), {}),
    ).toThrow('env.K: fromWorkerEnv "OPENAI_API_KEY" is not listed in worker.shell.secretEnv');
    expect(() =>
      shellEnvironment({ K: { fromWorkerEnv: 'NOPE' } }, ctx({ secretEnv: ['NOPE'] }, workerEnv), {}),
    ).toThrow('is not set in this worker');
  });
});
