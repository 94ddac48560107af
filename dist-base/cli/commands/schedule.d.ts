import { type Command } from 'commander';
export declare function registerSchedule(program: Command): void;
