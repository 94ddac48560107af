import { describe, expect, it } from 'vitest';
import { HostPolicy } from '../../src/activities/executors/http-guard';
import { checkCommand, globMatcher } from '../../src/activities/executors/shell-env';

describe('worker.http.allowHosts', () => {
  const strict = new HostPolicy({ allowHosts: [], allowPublic: true });

  it('refuses loopback, private, link-local (cloud metadata) and mapped addresses by default, naming the key to change', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '0.0.0.0']) {
      expect(strict.refusal('svc.internal', 80, ip)).toContain('worker.http.allowHosts');
    }
    expect(strict.refusal('example.com', 443, '93.184.215.14')).toBeNull();
  });

  it('allows what an entry names: a host, a host:port, a wildcard domain, an address or a CIDR', () => {
    const policy = new HostPolicy({ allowHosts: ['localhost', 'db.internal:5432', '*.corp.example', '10.0.0.7', '192.168.0.0/16', '[::1]:8080'], allowPublic: false });
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
    expect(() => checkCommand('make build; curl evil', ['/make( [a-z-]+)*/'])).toThrow(/matches none of worker\.shell\.allowCommands/);
    expect(() => checkCommand('anything', [])).toThrow(/empty: no command may run/);
    expect(() => checkCommand('anything', undefined)).not.toThrow();
  });
});
