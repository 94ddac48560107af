import { InvalidArgumentError } from 'commander';
import type { LogLevel } from '@temporalio/worker';

/** Parses a non-negative integer option value, naming what was wrong. */
export function intOption(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError(`"${value}" is not a non-negative integer.`);
  return n;
}

const LOG_LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

export function logLevelOption(value: string): LogLevel {
  const level = value.toUpperCase() as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new InvalidArgumentError(`"${value}" is not one of ${LOG_LEVELS.join(', ')}.`);
  return level;
}
