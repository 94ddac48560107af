import type { TeamrunConfig } from '../config/config';
import { Redactor, type Secret } from './redact';
/**
 * The values this worker knows to be secret: the llm executor's API key, `TEMPORAL_API_KEY`,
 * the TLS client key (the file's text and each line of it), every variable of
 * `worker.shell.secretEnv` (tasks may take these by name), those an agent CLI takes
 * (`worker.agentClis.*.env`) and those of `worker.redact.env`, the values `worker.mcpServers`
 * gives its servers (stdio `env`, the variables `headersEnv` names), and the payload codec's keys
 * and server token.
 */
export declare function workerSecrets(config: TeamrunConfig & {
    file?: string | null;
}, env: NodeJS.ProcessEnv): Secret[];
export declare function workerRedactor(config: TeamrunConfig & {
    file?: string | null;
}, env: NodeJS.ProcessEnv): Redactor;
