import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { connectionAddress, searchAttributeCommands, searchAttributeState } from '../client/setup-checks';
import { CliError } from './context';

/** gRPC status codes the server answers a start with. */
const GRPC = { INVALID_ARGUMENT: 3, RESOURCE_EXHAUSTED: 8, UNAVAILABLE: 14 } as const;

/**
 * Why a run did not start, in one line (and the commands that fix it), instead of the SDK's
 * "Failed to start Workflow" and a stack: the run id in use, the namespace without teamrun's
 * search attributes, a plan over the server's payload limit, a server that does not answer.
 */
export async function startFailure(err: unknown, client: Client, plan: unknown): Promise<CliError> {
  const namespace = client.options.namespace;
  if (err instanceof WorkflowExecutionAlreadyStartedError) {
    return new CliError(
      `a run with id "${err.workflowId}" is already running in namespace ${namespace}; choose another --id`,
    );
  }
  const cause = (err as { cause?: { code?: number; details?: string; message?: string } })?.cause;
  const detail = cause?.details ?? cause?.message ?? (err as Error)?.message ?? String(err);
  const code = cause?.code;
  if (/search attribute/i.test(detail)) {
    const state = await searchAttributeState(client.connection, namespace).catch(() => null);
    const missing = state?.missing.length ? state.missing : null;
    if (missing) {
      return new CliError(
        `namespace ${namespace} lacks teamrun's search ` +
          `attributes ${missing.join(', ')}: \`teamrun doctor --fix\` registers them, or:\n` +
          searchAttributeCommands(namespace, missing, connectionAddress(client.connection))
            .map((line) => `  ${line}`)
            .join('\n'),
      );
    }
    return new CliError(
      `the server refused the run's search attributes in ` +
        `namespace ${namespace}: ${detail} (\`teamrun doctor\` checks them)`,
    );
  }
  if (code === GRPC.RESOURCE_EXHAUSTED || /size (exceeds|limit)|exceeds.*limit|too large/i.test(detail)) {
    const bytes = Buffer.byteLength(JSON.stringify(plan));
    return new CliError(
      `the plan is too large for the server (${bytes} bytes as JSON; Temporal ` +
        `refuses payloads over its blob limit, 2 MB by default): ${detail}`,
    );
  }
  if (code === GRPC.UNAVAILABLE) return new CliError(`the server stopped answering while starting the run: ${detail}`);
  return new CliError(`the server refused to start the run: ${detail}`);
}
