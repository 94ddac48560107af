"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.temporalProfile = temporalProfile;
/**
 * The Temporal connection profile, shared by the config loader (config.ts, for the address) and
 * the connection (connection.ts, for the credentials); its own file so neither imports the other.
 */
const envconfig_1 = require("@temporalio/envconfig");
const errors_1 = require("./errors");
/**
 * The Temporal connection profile, read as the `temporal` CLI reads it (`@temporalio/envconfig`):
 * the profile `TEMPORAL_PROFILE` names (else `default`) of `temporal.toml` (`TEMPORAL_CONFIG_FILE`,
 * else `~/.config/temporalio/temporal.toml`), with `TEMPORAL_*` variables over it unless `fileOnly`.
 */
function temporalProfile(env = process.env, options = {}) {
    try {
        return (0, envconfig_1.loadClientConfigProfile)({ overrideEnvVars: definedOnly(env), disableEnv: options.fileOnly });
    }
    catch (err) {
        const where = env.TEMPORAL_CONFIG_FILE ?? 'temporal.toml';
        throw new errors_1.ConfigError(`${where}${env.TEMPORAL_PROFILE ? ` (profile "${env.TEMPORAL_PROFILE}")` : ''}: ${err.message}`);
    }
}
function definedOnly(env) {
    return Object.fromEntries(Object.entries(env).filter((entry) => entry[1] !== undefined));
}
