/**
 * The agent speaks to its run as its attempt through the worker's attempt gateway, as a shell
 * task's `teamrun send` does: its journal steps and teamrun's own tools (send_message, read_inbox,
 * add_tasks) all carry the attempt's identity and fencing token, filled in by the gateway.
 */
import type { JournalAnswer, JournalOp } from '../../../agent/types';
import { postToGateway } from '../../gateway/request';
import type { AttemptAccess } from '../../interface';

/** A refusal from the gateway or the run, with its stable code. */
export class GatewayRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'GatewayRefusal';
  }
}

export class AgentGateway {
  constructor(
    private readonly access: AttemptAccess,
    private readonly signal: AbortSignal,
  ) {}

  journal<Op extends JournalOp['op']>(
    request: Extract<JournalOp, { op: Op }>,
  ): Promise<Extract<JournalAnswer, { op: Op }>> {
    return this.post('journal', request);
  }

  post<T>(path: 'journal' | 'sendMessage' | 'readInbox' | 'addTasks', body: object): Promise<T> {
    return postToGateway(this.access, path, body, this.signal).then((text) => {
      const answer = JSON.parse(text) as { ok: true; answer: T } | { ok: false; code: string; message: string };
      if (answer.ok) return answer.answer;
      throw new GatewayRefusal(answer.code, answer.message);
    });
  }
}
