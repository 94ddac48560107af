"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.noopExecutor = exports.sleepExecutor = void 0;
const promises_1 = require("node:timers/promises");
const schema_1 = require("../../plan/schema");
const define_1 = require("./define");
/** Sleeps `ms` (the heartbeat keeps the lease meanwhile); for demos and benchmarks. */
exports.sleepExecutor = (0, define_1.defineExecutor)(schema_1.SleepSpecSchema, async (spec, ctx) => {
    await (0, promises_1.setTimeout)(spec.ms, undefined, { signal: ctx.signal });
    return {};
});
/** Returns at once. */
exports.noopExecutor = (0, define_1.defineExecutor)(schema_1.NoopSpecSchema, async () => ({}));
