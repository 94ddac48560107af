"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerCodecServer = registerCodecServer;
const codec_1 = require("../../codec");
const server_1 = require("../../codec/server");
const context_1 = require("../context");
const options_1 = require("../options");
const log = (line) => process.stderr.write(`teamrun codec-server: ${line}\n`);
function registerCodecServer(program) {
    program
        .command('codec-server')
        .description('serve the payload codec (codec: in teamrun.yaml) over HTTP for ' +
        'the Temporal Web UI and `temporal --codec-endpoint`, until Ctrl-C')
        .option('--host <host>', 'interface to listen on (default: codec.server.host, 127.0.0.1)')
        .option('--port <port>', 'port (default: codec.server.port, 8089; 0 picks a free one)', options_1.intOption)
        .action(async (options, command) => {
        const config = (0, context_1.configFrom)(command);
        const host = options.host ?? config.codec?.server?.host ?? '127.0.0.1';
        const running = await (0, server_1.startConfiguredCodecServer)(config, { ...options, log }).catch((err) => {
            if (err instanceof codec_1.CodecError)
                throw new context_1.CliError(err.message);
            throw new context_1.CliError(`the codec server cannot listen on ${host}:${options.port ?? config.codec?.server?.port}: ${err.message}`);
        });
        process.stdout.write([
            `teamrun codec server listening on ${running.url}`,
            `  namespaces: ${running.namespaces.join(', ')}; current ` +
                `key: ${config.codec.currentKeyId} (${config.codec.keys.length} known)`,
            `  CORS origins: ${running.corsOrigins.join(', ') || '(none: no browser may call it)'}`,
            `  temporal CLI: temporal workflow show -w <id> ` +
                `--codec-endpoint ${running.url} --codec-auth "Bearer <token>"`,
            `  Web UI:       --ui-codec-endpoint ${running.url}/t/<token>   ` +
                `(the UI sends no header without OIDC; see docs/security.md)`,
            '',
        ].join('\n'));
        if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
            log(`listening on ${host} over plain HTTP: put it behind TLS (decoded payloads and the token cross the network)`);
        }
        await new Promise((resolve) => {
            process.once('SIGINT', resolve);
            process.once('SIGTERM', resolve);
        });
        await running.close();
    });
}
