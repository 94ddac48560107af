"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.intOption = intOption;
exports.logLevelOption = logLevelOption;
const commander_1 = require("commander");
/** Parses a non-negative integer option value, naming what was wrong. */
function intOption(value) {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
        throw new commander_1.InvalidArgumentError(`"${value}" is not a non-negative integer.`);
    return n;
}
const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];
function logLevelOption(value) {
    const level = value.toUpperCase();
    if (!LOG_LEVELS.includes(level))
        throw new commander_1.InvalidArgumentError(`"${value}" is not one of ${LOG_LEVELS.join(', ')}.`);
    return level;
}
