import { unwatchFile, watchFile, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TeamrunConfig } from '../config/config';
import { startMockModel, type MockModelServer } from '../devserver/mock-model';
import { CliError } from '../operator/context';

/** The one model `--model` names, and the `worker.llm.baseUrl` that asks for it in teamrun.yaml. */
export const MOCK_MODEL = 'mock';

/**
 * With `--model mock` (or `worker.llm.baseUrl: mock`), starts the scripted mock model in this
 * process and points the worker's model endpoint at it; else null, the config untouched.
 */
export async function startMockFor(
  config: TeamrunConfig,
  flag: string | undefined,
  log: (line: string) => void,
): Promise<MockModelServer | null> {
  if (flag !== undefined && flag !== MOCK_MODEL) {
    throw new CliError(
      `--model ${JSON.stringify(flag)}: the only model --model starts is "mock", the scripted model teamrun ` +
        'ships; a real model is an OpenAI-compatible endpoint, worker.llm.baseUrl in teamrun.yaml ' +
        '(its key in worker.llm.apiKeyEnv)',
    );
  }
  if (flag !== MOCK_MODEL && config.worker.llm.baseUrl !== MOCK_MODEL) return null;
  const mock = await startMockModel();
  config.worker.llm.baseUrl = mock.baseUrl;
  log(`MOCK MODEL: agents talk to teamrun's scripted mock model at ${mock.baseUrl}, not to a real model`);
  return mock;
}

/** The banner's line for the mock, so nobody reads its answers as a model's. */
export function mockBannerLine(mock: MockModelServer): string {
  return (
    `Model:               MOCK (teamrun's scripted mock model at ${mock.baseUrl}; ` +
    'no real model, no key: its answers are tagged [mock model])'
  );
}

/**
 * Watches the config file `teamrun dev` started with: when its content changes, says that the
 * worker still runs with the old one and a restart applies it (a worker's config is fixed at its
 * start: its executors, limits, MCP servers and model endpoint). Returns a function that stops.
 */
export function watchConfigFile(file: string | null, log: (line: string) => void): () => void {
  if (!file) return () => undefined;
  const read = () => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  let seen = read();
  const name = path.relative(process.cwd(), file) || file;
  const listener = () => {
    const now = read();
    if (now === seen) return;
    seen = now;
    log(
      now === null
        ? `${name} was removed: this worker keeps the config it started with`
        : `${name} changed: restart \`teamrun dev\` to apply it (this worker keeps the config it started with)`,
    );
  };
  watchFile(file, { interval: 500, persistent: false }, listener);
  return () => unwatchFile(file, listener);
}
