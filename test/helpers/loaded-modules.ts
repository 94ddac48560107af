import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The environment that makes a teamrun process write the modules it loaded to `file` when it exits. */
export function recordingModulesTo(file: string): NodeJS.ProcessEnv {
  return {
    NODE_OPTIONS: `--require ${JSON.stringify(path.join(__dirname, 'loaded-modules.cjs'))}`,
    TEAMRUN_LOADED_MODULES: file,
  };
}

/** The modules a process started with `recordingModulesTo(file)` loaded, by path. */
export function modulesLoaded(file: string): string[] {
  return JSON.parse(readFileSync(file, 'utf8')) as string[];
}
