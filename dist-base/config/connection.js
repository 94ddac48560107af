"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CONNECT_TIMEOUT_MS = void 0;
exports.connectionOptions = connectionOptions;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const envconfig_1 = require("@temporalio/envconfig");
const errors_1 = require("./errors");
const profile_1 = require("./profile");
/** How long a client waits for the server before saying it cannot reach it. */
exports.CONNECT_TIMEOUT_MS = 2_000;
/**
 * The options to reach the configured cluster: the address of `config.connection` (which
 * `loadConfig` took from flags, variables, the profile or the config file), and the credentials
 * of the Temporal profile and variables (`TEMPORAL_API_KEY`, `TEMPORAL_TLS*`, `TEMPORAL_GRPC_META_*`),
 * never from teamrun's config file (which may name certificate files, not hold secrets).
 */
function connectionOptions(config, env = process.env) {
    const { address } = config.connection;
    const profile = (0, profile_1.temporalProfile)(env);
    const base = config.file ? node_path_1.default.dirname(config.file) : process.cwd();
    const certPath = env.TEMPORAL_TLS_CLIENT_CERT_PATH || config.connection.clientCertPath;
    const keyPath = env.TEMPORAL_TLS_CLIENT_KEY_PATH || config.connection.clientKeyPath;
    if (Boolean(certPath) !== Boolean(keyPath)) {
        throw new errors_1.ConfigError('connection: a TLS client certificate needs both its cert and its ' +
            'key (TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH)');
    }
    const read = (file, what) => {
        try {
            return (0, node_fs_1.readFileSync)(node_path_1.default.resolve(base, file));
        }
        catch (err) {
            throw new errors_1.ConfigError(`connection: cannot read the TLS client ${what} ${file}: ${err.message}`);
        }
    };
    const profileTls = profile.tls;
    const fromProfile = (source, what) => {
        try {
            return (0, envconfig_1.loadConfigData)(source);
        }
        catch (err) {
            throw new errors_1.ConfigError(`connection: cannot read the TLS ${what} of the Temporal profile: ${err.message}`);
        }
    };
    const clientCertPair = certPath && keyPath
        ? { crt: read(certPath, 'certificate'), key: read(keyPath, 'key') }
        : profileTls?.clientCert && profileTls.clientKey
            ? {
                crt: fromProfile(profileTls.clientCert, 'client certificate'),
                key: fromProfile(profileTls.clientKey, 'client key'),
            }
            : undefined;
    const serverRootCACertificate = profileTls?.serverCACert
        ? fromProfile(profileTls.serverCACert, 'server CA certificate')
        : undefined;
    const apiKey = profile.apiKey || undefined;
    const tls = profileTls?.disabled !== true &&
        (config.connection.tls || profileTls !== undefined || Boolean(apiKey) || Boolean(clientCertPair));
    const details = {
        ...(clientCertPair ? { clientCertPair } : {}),
        ...(serverRootCACertificate ? { serverRootCACertificate } : {}),
        ...(profileTls?.serverName ? { serverNameOverride: profileTls.serverName } : {}),
    };
    return {
        address,
        ...(tls ? { tls: Object.keys(details).length ? details : true } : {}),
        ...(apiKey ? { apiKey } : {}),
        ...(profile.grpcMeta && Object.keys(profile.grpcMeta).length ? { metadata: profile.grpcMeta } : {}),
    };
}
