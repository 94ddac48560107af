"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PLAN_ENV_FAMILY_EXCEPTIONS = exports.PLAN_ENV_DENIED_PREFIXES = exports.PLAN_ENV_DENIED_NAMES = void 0;
exports.planEnvRefusal = planEnvRefusal;
exports.checkExecutorEnv = checkExecutorEnv;
exports.checkPlanEnv = checkPlanEnv;
/**
 * What a plan's `env` may not set on a worker that restricts its commands
 * (`worker.shell.allowCommands`): variables that choose which program runs, or what a program
 * loads or executes on its own (a preload, an interpreter option, a startup file, a hook). Names
 * are compared upper-cased, since several tools read them in any case (npm's `npm_config_*`).
 * Without a restriction a plan runs any command, so its env can do no more.
 * docs/security.md lists these, and says why a denylist.
 */
exports.PLAN_ENV_DENIED_NAMES = new Set([
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
].flatMap((line) => line.split(' ')));
/** Families denied by prefix: every name that starts with one (`LD_PRELOAD`, `NODE_OPTIONS`, `PYTHONPATH`). */
exports.PLAN_ENV_DENIED_PREFIXES = ('LD_ DYLD_ _RLD MALLOC_ BASH_FUNC_ NODE_ NPM_CONFIG_ YARN_ PNPM_ COREPACK_ ELECTRON_ ' +
    'PYTHON PERL RUBY LUA_ GIT_ CARGO_ DOTNET_ COMPLUS_ CORECLR_').split(' ');
/** Members of a denied family that choose no program and load nothing, and that plans commonly set. */
exports.PLAN_ENV_FAMILY_EXCEPTIONS = new Set(('NODE_ENV PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE PYTHONIOENCODING PYTHONHASHSEED ' +
    'GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL').split(' '));
/** A name a shell can export; anything else (`BASH_FUNC_x%%`, `A=B`) is how functions and odd parsers get in. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Why a plan may not set `name` on a worker that restricts commands; null when it may. */
function planEnvRefusal(name) {
    if (!VARIABLE_NAME.test(name))
        return 'is not a plain variable name ([A-Za-z_][A-Za-z0-9_]*)';
    const upper = name.toUpperCase();
    if (exports.PLAN_ENV_FAMILY_EXCEPTIONS.has(upper))
        return null;
    const prefix = exports.PLAN_ENV_DENIED_PREFIXES.find((p) => upper.startsWith(p));
    if (!exports.PLAN_ENV_DENIED_NAMES.has(upper) && prefix === undefined)
        return null;
    return (`may not be set by a plan on a worker that restricts commands (worker.shell.allowCommands): ` +
        `it changes which program runs or what it loads${prefix ? ` (every ${prefix}* variable)` : ''}; ` +
        `see docs/security.md`);
}
/** The problems of one executor's `env`, each at `<at>.env.<NAME>`; only `shell` executors carry one. */
function checkExecutorEnv(executor, at) {
    if (executor.kind !== 'shell' || typeof executor.env !== 'object' || executor.env === null)
        return [];
    const problems = [];
    for (const name of Object.keys(executor.env)) {
        const refusal = planEnvRefusal(name);
        if (refusal)
            problems.push({ path: `${at}.env.${name}`, code: 'env_refused', message: refusal });
    }
    return problems;
}
/** Every executor of a plan, tasks and the idle hook, checked as a worker that restricts commands would. */
function checkPlanEnv(plan) {
    const problems = plan.tasks.flatMap((task, i) => checkExecutorEnv(task.executor, `tasks[${i}].executor`));
    const hook = plan.hooks?.teammateIdle?.executor;
    if (hook)
        problems.push(...checkExecutorEnv(hook, 'hooks.teammateIdle.executor'));
    return problems;
}
