import { readFileSync } from 'node:fs';
import path from 'node:path';
import { codecSecrets } from '../codec';
import type { TeamrunConfig } from '../config/config';
import { globMatcher } from './executors/shell-env';
import { Redactor, type Secret } from './redact';

/**
 * The values this worker knows to be secret: the llm executor's API key and each `worker.models` key,
 * `TEMPORAL_API_KEY`,
 * the TLS client key (the file's text and each line of it), every variable of
 * `worker.shell.secretEnv` (tasks may take these by name), those an agent CLI takes
 * (`worker.agentClis.*.env`) and those of `worker.redact.env`, the values `worker.mcpServers`
 * gives its servers (stdio `env`, the variables `headersEnv` names), and the payload codec's keys
 * and server token.
 */
export function workerSecrets(config: TeamrunConfig & { file?: string | null }, env: NodeJS.ProcessEnv): Secret[] {
  const secrets: Secret[] = [];
  const fromEnv = (name: string) => {
    const value = env[name];
    if (value) secrets.push({ name, value });
  };
  fromEnv(config.worker.llm.apiKeyEnv);
  // Each model's key (worker.models.<name>.apiKeyEnv).
  for (const model of Object.values(config.worker.models)) if (model.apiKeyEnv) fromEnv(model.apiKeyEnv);
  fromEnv('TEMPORAL_API_KEY');
  for (const name of config.worker.shell.secretEnv) fromEnv(name);
  for (const cli of Object.values(config.worker.agentClis))
    for (const value of Object.values(cli?.env ?? {})) if (typeof value !== 'string') fromEnv(value.fromWorkerEnv);
  // MCP servers: the header values their URLs are called with, and the values a stdio server is given.
  for (const [server, spec] of Object.entries(config.worker.mcpServers)) {
    if ('url' in spec) for (const name of Object.values(spec.headersEnv ?? {})) fromEnv(name);
    else for (const [name, value] of Object.entries(spec.env ?? {})) secrets.push({ name: `${server}.${name}`, value });
  }
  const redactNamed = globMatcher(config.worker.redact.env);
  for (const name of Object.keys(env)) if (redactNamed(name)) fromEnv(name);
  const keyPath = env.TEMPORAL_TLS_CLIENT_KEY_PATH || config.connection.clientKeyPath;
  if (keyPath) {
    try {
      const base = config.file ? path.dirname(config.file) : process.cwd();
      const pem = readFileSync(path.resolve(base, keyPath), 'utf8');
      secrets.push({ name: 'TLS_CLIENT_KEY', value: pem.trim() });
      for (const line of pem.split(/\r?\n/))
        if (line.length >= 16 && !line.startsWith('-----')) secrets.push({ name: 'TLS_CLIENT_KEY', value: line });
    } catch {
      // Unreadable here: the connection reports that itself.
    }
  }
  secrets.push(...codecSecrets(config, env));
  return secrets;
}

export function workerRedactor(config: TeamrunConfig & { file?: string | null }, env: NodeJS.ProcessEnv): Redactor {
  return new Redactor(workerSecrets(config, env));
}
