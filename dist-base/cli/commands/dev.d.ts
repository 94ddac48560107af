import type { Command } from 'commander';
export declare function registerDev(program: Command): void;
/**
 * The demo plan the package ships, as a path from `cwd`: `examples/demo.yaml` in a clone,
 * `node_modules/teamrun/examples/demo.yaml` in a project that installed the package, absolute elsewhere.
 */
export declare function demoPlanPath(cwd: string): string;
