/**
 * `npm run jaeger`: Jaeger all-in-one (in memory) on this machine, built from the Go module proxy
 * on first use and cached in `.teamrun/jaeger/` (src/devserver/jaeger.ts). It takes OTLP/HTTP on
 * 127.0.0.1:4318 and answers the query API on http://127.0.0.1:16686 until Ctrl-C.
 * `npm run jaeger -- --build` only builds it.
 */
import { DEFAULT_JAEGER_PORTS, ensureJaegerBuild, startJaeger } from '../src/devserver/jaeger';

const log = (line: string) => process.stderr.write(`jaeger: ${line}\n`);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.some((arg) => arg !== '--build'))
    throw new Error(`unknown argument(s) ${args.join(' ')}: use no argument to start, --build to build only`);
  if (args.includes('--build')) {
    log(`ready: ${ensureJaegerBuild(log)}`);
    return;
  }
  const jaeger = await startJaeger({ ports: DEFAULT_JAEGER_PORTS, log });
  process.stdout.write(
    `Jaeger ready: query API and UI ${jaeger.queryUrl}, OTLP/HTTP ${jaeger.otlpEndpoint}\n` +
      `  OTEL_EXPORTER_OTLP_ENDPOINT=${jaeger.otlpEndpoint} npx teamrun dev\n` +
      'Press Ctrl-C to stop.\n',
  );
  const stop = () => void jaeger.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await new Promise<void>((resolve) => jaeger.process.once('exit', () => resolve()));
}

main().catch((err: Error & { code?: string }) => {
  process.stderr.write(`jaeger: ${err.code ? `${err.code}: ` : ''}${err.message}\n`);
  process.exit(1);
});
