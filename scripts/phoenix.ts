/**
 * `npm run phoenix`: Arize Phoenix on this machine (src/devserver/phoenix.ts), installed from PyPI
 * into .teamrun/phoenix-venv on first use. Its UI, REST and GraphQL answer on
 * http://127.0.0.1:6006, which also takes OTLP/HTTP (protobuf) on /v1/traces, until Ctrl-C; what it
 * receives stays in .teamrun/phoenix/ (SQLite). `npm run phoenix -- --install` only installs it.
 */
import { DEFAULT_PHOENIX_PORTS, ensurePhoenix, startPhoenix } from '../src/devserver/phoenix';

const log = (line: string) => process.stderr.write(`phoenix: ${line}\n`);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.some((arg) => arg !== '--install'))
    throw new Error(`unknown argument(s) ${args.join(' ')}: use no argument to start, --install to install only`);
  if (args.includes('--install')) {
    log(`ready: ${ensurePhoenix(log)}`);
    return;
  }
  const phoenix = await startPhoenix({ ports: DEFAULT_PHOENIX_PORTS, log });
  process.stdout.write(
    `Phoenix ready: UI ${phoenix.url}, OTLP/HTTP ${phoenix.otlpEndpoint}/v1/traces\n` +
      `  OTEL_EXPORTER_OTLP_ENDPOINT=${phoenix.otlpEndpoint} npx teamrun dev\n` +
      'Press Ctrl-C to stop.\n',
  );
  const stop = () => void phoenix.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await new Promise<void>((resolve) => phoenix.process.once('exit', () => resolve()));
}

main().catch((err: Error & { code?: string }) => {
  process.stderr.write(`phoenix: ${err.code ? `${err.code}: ` : ''}${err.message}\n`);
  process.exit(1);
});
