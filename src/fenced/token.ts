import { InvalidFencingToken } from './errors';

/** Parses a fencing token as it arrives from a flag, an env variable or a header. */
export function parseFencingToken(raw: unknown, where = 'fencing token'): number {
  const token = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  if (typeof token !== 'number' || !Number.isSafeInteger(token) || token < 1) throw new InvalidFencingToken(raw, where);
  return token;
}

/** The current attempt's token, from the environment the `shell` executor gives every attempt. */
export function fencingTokenFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return parseFencingToken(env.TEAMRUN_FENCING_TOKEN, 'TEAMRUN_FENCING_TOKEN');
}
