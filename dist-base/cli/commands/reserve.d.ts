import type { Command } from 'commander';
/** `teamrun reserve` exits with this when the run refused: the attempt is being stopped. */
export declare const RESERVE_REFUSED_EXIT = 3;
/** `reserve`: inside a task, ask the run for budget before spending it (the attempt's live reservation). */
export declare function registerReserve(program: Command): void;
