/** Parses a fencing token as it arrives from a flag, an env variable or a header. */
export declare function parseFencingToken(raw: unknown, where?: string): number;
/** The current attempt's token, from the environment the `shell` executor gives every attempt. */
export declare function fencingTokenFromEnv(env?: NodeJS.ProcessEnv): number;
