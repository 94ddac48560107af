import type { Command } from 'commander';
import { registerTemporalPath } from './temporal-path';
import { registerValidate } from './validate';

/** Each command group lives in its own module and registers itself here. */
export function registerCommands(program: Command): void {
  registerValidate(program);
  registerTemporalPath(program);
}
