import type { Command } from 'commander';
import { findTemporalBinary, temporalVersion } from '../../devserver/binary';

export function registerTemporalPath(program: Command): void {
  program
    .command('temporal-path')
    .description('print the path of the temporal CLI teamrun uses, installing it into .teamrun/ if needed')
    .action(() => {
      const binary = findTemporalBinary();
      process.stdout.write(`${binary}\n${temporalVersion(binary)}\n`);
    });
}
