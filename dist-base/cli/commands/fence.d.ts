import type { Command } from 'commander';
/** Exit code of a write refused for a stale token, so a shell step can tell it from other errors. */
export declare const FENCE_REJECTED_EXIT = 3;
export declare function registerFence(program: Command): void;
