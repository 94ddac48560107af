/** The `p`-th percentile (0..100) of `values`, nearest-rank; NaN for no values. */
export function percentile(values: ReadonlyArray<number>, p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export function summarize(values: ReadonlyArray<number>): Summary {
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    max: values.length ? Math.max(...values) : Number.NaN,
  };
}

/** The middle value; the mean of the two middle ones for an even count. */
export function median(values: ReadonlyArray<number>): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Takes `name value` out of `args` (a tool's command line) and returns the value as a number, or `fallback` when the
 * option is not there; what is left in `args` are the tool's other arguments.
 */
export function takeNumberOption(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [, given] = args.splice(i, 2);
  const value = Number(given);
  if (given === undefined || given.trim() === '' || !Number.isFinite(value) || value < 0)
    throw new Error(`${name} takes a number of 0 or more, got ${given === undefined ? 'nothing' : `"${given}"`}`);
  return value;
}
