import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where a streamed answer stops: until `resume` settles (then it goes on), or for good when `cut`. */
export interface Hold {
  afterChars: number;
  resume?: Promise<unknown>;
  cut?: boolean;
}

/** What every fake provider records of a request. */
export interface ProviderRequest {
  path: string;
  model: string | null;
  /** The agent's turn: assistant messages already in the conversation, plus one. */
  turn: number;
  /** Names of the tools offered. */
  tools: string[];
  /** What the agent sent back for each earlier tool call, oldest first. */
  toolResults: string[];
  apiKey: string | null;
  idempotencyKey: string | null;
  maxTokens: number | null;
  stream: boolean;
  status: number | null;
  /** The client went away (or the server cut the stream) before the answer ended. */
  aborted: boolean;
  /** When the request arrived (epoch ms). */
  at: number;
}

/** One scripted answer: text and tool calls streamed, or an error status with headers (a 429's Retry-After). */
export interface ProviderTurn<U> {
  text?: string;
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  usage?: U;
  status?: number;
  headers?: Record<string, string>;
  hold?: Hold;
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A text in pieces of `size` characters, as a model streams it. */
export function pieces(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Streams `text` through `write` piece by piece, stopping at `hold`: resolves false when the stream must end
 * there (cut by the server, or the client went away), true when the whole text was written.
 */
export async function writeText(
  text: string,
  write: (piece: string) => void,
  res: ServerResponse,
  record: ProviderRequest,
  hold?: Hold,
): Promise<boolean> {
  let sent = 0;
  for (const piece of pieces(text)) {
    if (hold && sent < hold.afterChars && sent + piece.length >= hold.afterChars) {
      const at = hold.afterChars - sent;
      write(piece.slice(0, at));
      if (hold.cut) {
        // Cut once what was written reached the client: a stream that began, then broke.
        await new Promise((resolve) => setTimeout(resolve, 200));
        record.aborted = true;
        res.destroy();
        return false;
      }
      const gone = await new Promise<boolean>((resolve) => {
        res.once('close', () => resolve(true));
        void Promise.resolve(hold.resume).then(() => resolve(false));
      });
      if (gone) {
        record.aborted = true;
        return false;
      }
      if (piece.length > at) write(piece.slice(at));
    } else write(piece);
    sent += piece.length;
  }
  return true;
}

export function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

export function sendJson(res: ServerResponse, record: ProviderRequest, status: number, body: unknown, headers = {}) {
  record.status = status;
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
