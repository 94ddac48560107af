import type { Command } from 'commander';
/** `teamrun budget tighten <run>`: lower a running run's limits; they never loosen. */
export declare function registerBudget(program: Command): void;
