import type { PlanProblem } from './problem';

/**
 * What a plan's `env` may not set on a worker that restricts its commands
 * (`worker.shell.allowCommands`): variables that choose which program runs, or what a program
 * loads or executes on its own (a preload, an interpreter option, a startup file, a hook). Names
 * are compared upper-cased, since several tools read them in any case (npm's `npm_config_*`).
 * Without a restriction a plan runs any command, so its env can do no more.
 * docs/security.md lists these, and says why a denylist.
 */
export const PLAN_ENV_DENIED_NAMES: ReadonlySet<string> = new Set(
  [
    // which program runs, and what the shell (or a tool it starts) runs before and around it
    'PATH CDPATH IFS ENV BASH_ENV SHELLOPTS BASHOPTS PS4 PROMPT_COMMAND GLOBIGNORE FPATH ZDOTDIR',
    'NULLCMD READNULLCMD SHELL HOME EDITOR VISUAL PAGER MANPAGER BROWSER LESSOPEN LESSCLOSE',
    'XDG_CONFIG_HOME XDG_CONFIG_DIRS XDG_DATA_DIRS MAKEFLAGS MFLAGS',
    // the C library and the dynamic loader (with LD_*: what glibc ignores for setuid programs)
    'GCONV_PATH GETCONF_DIR GLIBC_TUNABLES HOSTALIASES LOCALDOMAIN LOCPATH NIS_PATH NLSPATH',
    'RESOLV_HOST_CONF RES_OPTIONS TZDIR TERMINFO TERMINFO_DIRS TERMCAP',
    // language runtimes and build tools that load or run code a variable names
    'JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS CLASSPATH PHPRC PHP_INI_SCAN_DIR TCLLIBPATH',
    'GOFLAGS GOROOT GOPATH GOENV GOTOOLCHAIN RUSTC_WRAPPER RUSTFLAGS GEM_HOME GEM_PATH BUNDLE_GEMFILE',
    'R_PROFILE R_PROFILE_USER R_ENVIRON R_ENVIRON_USER',
  ].flatMap((line) => line.split(' ')),
);

/** Families denied by prefix: every name that starts with one (`LD_PRELOAD`, `NODE_OPTIONS`, `PYTHONPATH`). */
export const PLAN_ENV_DENIED_PREFIXES: ReadonlyArray<string> = (
  'LD_ DYLD_ _RLD MALLOC_ BASH_FUNC_ NODE_ NPM_CONFIG_ YARN_ PNPM_ COREPACK_ ELECTRON_ ' +
  'PYTHON PERL RUBY LUA_ GIT_ CARGO_ DOTNET_ COMPLUS_ CORECLR_'
).split(' ');

/** Members of a denied family that choose no program and load nothing, and that plans commonly set. */
export const PLAN_ENV_FAMILY_EXCEPTIONS: ReadonlySet<string> = new Set(
  (
    'NODE_ENV PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE PYTHONIOENCODING PYTHONHASHSEED ' +
    'GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL'
  ).split(' '),
);

/**
 * The names a plan may set on a worker that restricts commands, unless its operator lists others
 * (`worker.shell.planEnv`): an allowlist, since a denylist cannot know every tool's variables (`CC`
 * with `make`, `MAKEFILES`, `MAVEN_OPTS`, `GRADLE_OPTS`, `PIP_INDEX_URL`, `OPENSSL_CONF` and
 * `http_proxy` all steer an allowed program). The denied names stay refused even when listed.
 */
export const DEFAULT_PLAN_ENV: ReadonlyArray<string> = [
  'CI',
  'NO_COLOR',
  'FORCE_COLOR',
  'TERM',
  'TZ',
  'LANG',
  'LC_*',
  ...PLAN_ENV_FAMILY_EXCEPTIONS,
];

/** `*` globs over names, compared upper-cased as the denylist is. */
function allowedBy(patterns: ReadonlyArray<string>): (name: string) => boolean {
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .toUpperCase()
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')}$`,
      ),
  );
  return (name) => regexes.some((r) => r.test(name.toUpperCase()));
}

/** A name a shell can export; anything else (`BASH_FUNC_x%%`, `A=B`) is how functions and odd parsers get in. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Why a plan may not set `name` on a worker that restricts commands; null when it may: it is in
 * the allowlist (`allowed`, default DEFAULT_PLAN_ENV) and not denied.
 */
export function planEnvRefusal(name: string, allowed: ReadonlyArray<string> = DEFAULT_PLAN_ENV): string | null {
  if (!VARIABLE_NAME.test(name)) return 'is not a plain variable name ([A-Za-z_][A-Za-z0-9_]*)';
  const upper = name.toUpperCase();
  const denied = deniedWhy(upper);
  if (denied) return denied;
  if (allowedBy(allowed)(name)) return null;
  return (
    `may not be set by a plan on a worker that restricts commands (worker.shell.allowCommands): ` +
    `it is not in worker.shell.planEnv (${allowed.join(', ') || 'empty'}), the names a plan may set there; ` +
    `see docs/security.md`
  );
}

function deniedWhy(upper: string): string | null {
  if (PLAN_ENV_FAMILY_EXCEPTIONS.has(upper)) return null;
  const prefix = PLAN_ENV_DENIED_PREFIXES.find((p) => upper.startsWith(p));
  if (!PLAN_ENV_DENIED_NAMES.has(upper) && prefix === undefined) return null;
  return (
    `may not be set by a plan on a worker that restricts commands (worker.shell.allowCommands): ` +
    `it changes which program runs or what it loads${prefix ? ` (every ${prefix}* variable)` : ''}; ` +
    `see docs/security.md`
  );
}

/** An executor as far as the env check reads it. */
interface EnvHolder {
  kind: string;
  env?: unknown;
}

/** The problems of one executor's `env`, each at `<at>.env.<NAME>`; only `shell` executors carry one. */
export function checkExecutorEnv(executor: EnvHolder, at: string, allowed?: ReadonlyArray<string>): PlanProblem[] {
  if (executor.kind !== 'shell' || typeof executor.env !== 'object' || executor.env === null) return [];
  const problems: PlanProblem[] = [];
  for (const name of Object.keys(executor.env)) {
    const refusal = planEnvRefusal(name, allowed);
    if (refusal) problems.push({ path: `${at}.env.${name}`, code: 'env_refused', message: refusal });
  }
  return problems;
}

/** Every executor of a plan, tasks and the idle hook, checked as a worker that restricts commands would. */
export function checkPlanEnv(
  plan: {
    tasks: ReadonlyArray<{ executor: EnvHolder }>;
    hooks?: { teammateIdle?: { executor: EnvHolder } };
  },
  allowed?: ReadonlyArray<string>,
): PlanProblem[] {
  const problems = plan.tasks.flatMap((task, i) => checkExecutorEnv(task.executor, `tasks[${i}].executor`, allowed));
  const hook = plan.hooks?.teammateIdle?.executor;
  if (hook) problems.push(...checkExecutorEnv(hook, 'hooks.teammateIdle.executor', allowed));
  return problems;
}
