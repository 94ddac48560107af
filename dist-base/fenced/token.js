"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseFencingToken = parseFencingToken;
exports.fencingTokenFromEnv = fencingTokenFromEnv;
const errors_1 = require("./errors");
/** Parses a fencing token as it arrives from a flag, an env variable or a header. */
function parseFencingToken(raw, where = 'fencing token') {
    const token = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
    if (typeof token !== 'number' || !Number.isSafeInteger(token) || token < 1)
        throw new errors_1.InvalidFencingToken(raw, where);
    return token;
}
/** The current attempt's token, from the environment the `shell` executor gives every attempt. */
function fencingTokenFromEnv(env = process.env) {
    return parseFencingToken(env.TEAMRUN_FENCING_TOKEN, 'TEAMRUN_FENCING_TOKEN');
}
