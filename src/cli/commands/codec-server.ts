import path from 'node:path';
import type { Command } from 'commander';
import { CodecError, codecFor } from '../../codec';
import { readToken, startCodecServer } from '../../codec/server';
import { CliError, configFrom } from '../context';
import { intOption } from '../options';

const log = (line: string) => process.stderr.write(`teamrun codec-server: ${line}\n`);

export function registerCodecServer(program: Command): void {
  program
    .command('codec-server')
    .description(
      'serve the payload codec (codec: in temporal.yaml) over HTTP for the Temporal Web UI and `temporal --codec-endpoint`, until Ctrl-C',
    )
    .option('--host <host>', 'interface to listen on (default: codec.server.host, 127.0.0.1)')
    .option('--port <port>', 'port (default: codec.server.port, 8089; 0 picks a free one)', intOption)
    .action(async (options: { host?: string; port?: number }, command: Command) => {
      const config = configFrom(command);
      const server = config.codec?.server;
      if (!config.codec || !server) {
        throw new CliError('the codec server needs `codec:` with `codec.server:` (tokenEnv or tokenFile, corsOrigins) in temporal.yaml; see docs/security.md');
      }
      const file = (config as { file?: string | null }).file;
      let codec;
      let token;
      try {
        codec = codecFor(config)!;
        token = readToken(server, file ? path.dirname(file) : process.cwd());
      } catch (err) {
        if (err instanceof CodecError) throw new CliError(err.message);
        throw err;
      }
      const namespaces = server.namespaces ?? [config.connection.namespace];
      const host = options.host ?? server.host;
      const running = await startCodecServer({
        codec,
        token,
        corsOrigins: server.corsOrigins,
        namespaces,
        host,
        port: options.port ?? server.port,
        log,
      }).catch((err: Error) => {
        throw new CliError(`the codec server cannot listen on ${host}:${options.port ?? server.port}: ${err.message}`);
      });
      process.stdout.write(
        [
          `teamrun codec server listening on ${running.url}`,
          `  namespaces: ${namespaces.join(', ')}; current key: ${config.codec.currentKeyId} (${config.codec.keys.length} known)`,
          `  CORS origins: ${server.corsOrigins.join(', ') || '(none: no browser may call it)'}`,
          `  temporal CLI: temporal workflow show -w <id> --codec-endpoint ${running.url} --codec-auth "Bearer $TOKEN"`,
          `  Web UI:       --ui-codec-endpoint ${running.url}/t/<token>   (the UI sends no header without OIDC; see docs/security.md)`,
          '',
        ].join('\n'),
      );
      if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
        log(`listening on ${host} over plain HTTP: put it behind TLS (decoded payloads and the token cross the network)`);
      }
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await running.close();
    });
}
