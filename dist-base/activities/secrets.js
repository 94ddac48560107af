"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.workerSecrets = workerSecrets;
exports.workerRedactor = workerRedactor;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const codec_1 = require("../codec");
const shell_env_1 = require("./executors/shell-env");
const redact_1 = require("./redact");
/**
 * The values this worker knows to be secret: the llm executor's API key, `TEMPORAL_API_KEY`,
 * the TLS client key (the file's text and each line of it), every variable of
 * `worker.shell.secretEnv` (tasks may take these by name), those an agent CLI takes
 * (`worker.agentClis.*.env`) and those of `worker.redact.env`, the values `worker.mcpServers`
 * gives its servers (stdio `env`, the variables `headersEnv` names), and the payload codec's keys
 * and server token.
 */
function workerSecrets(config, env) {
    const secrets = [];
    const fromEnv = (name) => {
        const value = env[name];
        if (value)
            secrets.push({ name, value });
    };
    fromEnv(config.worker.llm.apiKeyEnv);
    fromEnv('TEMPORAL_API_KEY');
    for (const name of config.worker.shell.secretEnv)
        fromEnv(name);
    for (const cli of Object.values(config.worker.agentClis))
        for (const value of Object.values(cli?.env ?? {}))
            if (typeof value !== 'string')
                fromEnv(value.fromWorkerEnv);
    // MCP servers: the header values their URLs are called with, and the values a stdio server is given.
    for (const [server, spec] of Object.entries(config.worker.mcpServers)) {
        if ('url' in spec)
            for (const name of Object.values(spec.headersEnv ?? {}))
                fromEnv(name);
        else
            for (const [name, value] of Object.entries(spec.env ?? {}))
                secrets.push({ name: `${server}.${name}`, value });
    }
    const redactNamed = (0, shell_env_1.globMatcher)(config.worker.redact.env);
    for (const name of Object.keys(env))
        if (redactNamed(name))
            fromEnv(name);
    const keyPath = env.TEMPORAL_TLS_CLIENT_KEY_PATH || config.connection.clientKeyPath;
    if (keyPath) {
        try {
            const base = config.file ? node_path_1.default.dirname(config.file) : process.cwd();
            const pem = (0, node_fs_1.readFileSync)(node_path_1.default.resolve(base, keyPath), 'utf8');
            secrets.push({ name: 'TLS_CLIENT_KEY', value: pem.trim() });
            for (const line of pem.split(/\r?\n/))
                if (line.length >= 16 && !line.startsWith('-----'))
                    secrets.push({ name: 'TLS_CLIENT_KEY', value: line });
        }
        catch {
            // Unreadable here: the connection reports that itself.
        }
    }
    secrets.push(...(0, codec_1.codecSecrets)(config, env));
    return secrets;
}
function workerRedactor(config, env) {
    return new redact_1.Redactor(workerSecrets(config, env));
}
