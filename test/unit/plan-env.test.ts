import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN_ENV, planEnvRefusal } from '../../src/plan/env-rules';
import { validatePlan } from '../../src/plan/validate';

describe("a plan's env under allowCommands is an allowlist", () => {
  it('refuses, by default, the names that steered allowed programs past the old denylist', () => {
    for (const name of ['CC', 'MAKEFILES', 'MAVEN_OPTS', 'GRADLE_OPTS', 'PIP_INDEX_URL', 'OPENSSL_CONF', 'http_proxy'])
      expect(planEnvRefusal(name), name).toMatch(/it is not in worker\.shell\.planEnv/);
    for (const name of ['CI', 'NO_COLOR', 'TZ', 'LC_ALL', 'NODE_ENV', 'PYTHONUNBUFFERED', 'GIT_AUTHOR_NAME'])
      expect(planEnvRefusal(name), name).toBeNull();
  });

  it("takes the operator's list (globs), and never a denied name, even listed", () => {
    expect(planEnvRefusal('APP_REGION', ['APP_*'])).toBeNull();
    expect(planEnvRefusal('TARGET', ['APP_*'])).toMatch(/not in worker\.shell\.planEnv \(APP_\*\)/);
    expect(planEnvRefusal('PATH', ['*'])).toMatch(/changes which program runs/);
    expect(planEnvRefusal('LD_PRELOAD', ['LD_*'])).toMatch(/every LD_\* variable/);
  });

  it('is what validate checks when the config restricts commands', () => {
    const plan = {
      name: 'p',
      tasks: [{ key: 'a', executor: { kind: 'shell', command: 'make', env: { CC: '/tmp/x' } } }],
    };
    const refused = validatePlan(plan, { commandsRestricted: true });
    expect(refused.ok ? [] : refused.problems.map((p) => p.path)).toEqual(['tasks[0].executor.env.CC']);
    expect(validatePlan(plan, { commandsRestricted: true, planEnv: [...DEFAULT_PLAN_ENV, 'CC'] }).ok).toBe(true);
    expect(validatePlan(plan, {}).ok).toBe(true);
  });
});
