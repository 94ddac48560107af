import type { Command } from 'commander';
import { CodecError } from '../../codec';
import { startConfiguredCodecServer } from '../../codec/server';
import { CliError, configFrom } from '../../operator/context';
import { intOption } from '../../operator/options';

const log = (line: string) => process.stderr.write(`teamrun codec-server: ${line}\n`);

export function registerCodecServer(program: Command): void {
  program
    .command('codec-server')
    .description(
      'serve the payload codec (codec: in teamrun.yaml) over HTTP for ' +
        'the Temporal Web UI and `temporal --codec-endpoint`, until Ctrl-C',
    )
    .option('--host <host>', 'interface to listen on (default: codec.server.host, 127.0.0.1)')
    .option('--port <port>', 'port (default: codec.server.port, 8089; 0 picks a free one)', intOption)
    .action(async (options: { host?: string; port?: number }, command: Command) => {
      const config = configFrom(command);
      const host = options.host ?? config.codec?.server?.host ?? '127.0.0.1';
      const running = await startConfiguredCodecServer(config, { ...options, log }).catch((err: Error) => {
        if (err instanceof CodecError) throw new CliError(err.message);
        throw new CliError(
          `the codec server cannot listen on ${host}:${options.port ?? config.codec?.server?.port}: ${err.message}`,
        );
      });
      process.stdout.write(
        [
          `teamrun codec server listening on ${running.url}`,
          `  namespaces: ${running.namespaces.join(', ')}; current ` +
            `key: ${config.codec!.currentKeyId} (${config.codec!.keys.length} known)`,
          `  CORS origins: ${running.corsOrigins.join(', ') || '(none: no browser may call it)'}`,
          `  temporal CLI: temporal workflow show -w <id> ` +
            `--codec-endpoint ${running.url} --codec-auth "Bearer <token>"`,
          `  Web UI:       --ui-codec-endpoint ${running.url}/t/<token>   ` +
            `(the UI sends no header without OIDC; see docs/security.md)`,
          '',
        ].join('\n'),
      );
      if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
        log(
          `listening on ${host} over plain HTTP: put it behind TLS (decoded payloads and the token cross the network)`,
        );
      }
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await running.close();
    });
}
