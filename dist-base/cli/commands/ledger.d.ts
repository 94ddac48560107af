import { type Command } from 'commander';
import type { LedgerStatus } from '../../contract';
/** `teamrun ledger create|status|abort-all <id>`: a budget shared by many runs. */
export declare function registerLedger(program: Command): void;
export declare function nonNegative(value: string): number;
/** `1d`, `12h`, `30m`, `90s`, or milliseconds; at least a second. */
export declare function windowOption(value: string): number;
export declare function renderLedger(status: LedgerStatus): string;
