/**
 * `npm run cluster`: a production-shaped Temporal on this machine (PostgreSQL, and frontend,
 * history, matching and worker as separate processes), for `npm run test:cluster` and for trying
 * teamrun against a real cluster. `npm run cluster -- --stop` ends all of it; `npm run cluster --
 * --build` only builds the server (what CI starts in the background from its first minute).
 */
import { ensureServerBuild } from './cluster/build';
import { startCluster, stopCluster } from './cluster/cluster';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--stop')) {
    await stopCluster();
    return;
  }
  if (args.length === 1 && args[0] === '--build') {
    const build = ensureServerBuild((line) => process.stderr.write(`cluster: ${line}\n`));
    process.stdout.write(`Temporal server ${build.version} built: ${build.server}\n`);
    return;
  }
  if (args.length > 0)
    throw Object.assign(
      new Error(
        `unknown argument(s) ${args.join(' ')}: use no argument to start, --build to build only, --stop to stop`,
      ),
      { code: 'USAGE' },
    );
  const began = Date.now();
  const { address, state } = await startCluster();
  process.stdout.write(
    `Temporal cluster ready in ${((Date.now() - began) / 1000).toFixed(1)} s at ${address} (namespace default, ${Object.keys(state.pids).length} services, PostgreSQL on 127.0.0.1:${state.ports.postgres})\n` +
      `  TEMPORAL_ADDRESS=${address} npm run demo\n` +
      `  npm run cluster -- --stop\n`,
  );
}

main().catch((err: Error & { code?: string }) => {
  process.stderr.write(`cluster: ${err.code ? `${err.code}: ` : ''}${err.message}\n`);
  process.exit(1);
});
