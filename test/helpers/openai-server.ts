import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers one chat completion. */
export interface Reply {
  /** HTTP status; 200 by default. */
  status?: number;
  /** Token counts reported in `usage` (a 200 reply without them reports none). */
  usage?: { promptTokens: number; completionTokens: number; cachedTokens?: number };
  /** The assistant's answer; by default it repeats the last user message. */
  content?: string;
  /** Wait this long before answering; a client that aborts meanwhile is recorded as `aborted`. */
  delayMs?: number;
  /** A raw body instead of the OpenAI-shaped one (for error answers). */
  body?: (request: RecordedRequest) => unknown;
  /** Tool calls the assistant asks for (function calling); `arguments` is sent as given, or as JSON. */
  toolCalls?: Array<{ name: string; arguments: unknown; id?: string }>;
  /** Response headers (`Retry-After`, say). */
  headers?: Record<string, string>;
  /** Answers only once this settles (a test holding several requests until all arrived). */
  until?: Promise<unknown>;
  /**
   * A streamed answer (the request asked `stream: true`) that stops after `afterChars` characters of its content:
   * until `resume` settles (the stream then goes on), or for good when `cut` (the connection is destroyed).
   */
  hold?: { afterChars: number; resume?: Promise<unknown>; cut?: boolean };
}

/** An outage: every request (or those naming `model`) is answered `status` until `endsAt` (epoch ms). */
export interface Outage {
  status: number;
  endsAt: number;
  model?: string;
  headers?: Record<string, string>;
}

export interface RecordedRequest {
  path: string;
  model: string | null;
  messages: Array<{ role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }>;
  /** The agent's turn this request is: assistant messages already in the conversation, plus one. */
  turn: number;
  /** Names of the tools offered (function calling). */
  tools: string[];
  maxTokens: number | null;
  authorization: string | null;
  idempotencyKey: string | null;
  status: number | null;
  /** The client went away before the answer was sent (cancellation aborted the request). */
  aborted: boolean;
  /** When the request arrived (epoch ms, before its body was read). */
  at: number;
  /** The request asked for a streamed answer (SSE chunks), and for usage in its last chunk. */
  stream: boolean;
  includeUsage: boolean;
}

export interface OpenAiServer {
  /** Base URL for `worker.llm.baseUrl`, ending in `/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Answers the next requests with these replies, in order, before falling back to the model's reply. */
  queue(...replies: Reply[]): void;
  /** Sets the replies to requests that name `model`: one per request, in order, the last one repeating. */
  model(model: string, ...replies: Reply[]): void;
  /** Answers requests that name `model` with what `script` returns for each (an agent's turn by turn). */
  script(model: string, script: (request: RecordedRequest) => Reply): void;
  /** Answers every request (or those naming `outage.model`) with `outage.status` for `forMs` from now. */
  outage(outage: { status: number; forMs: number; model?: string; headers?: Record<string, string> }): {
    /** Ends the outage now. */
    end(): void;
  };
  close(): Promise<void>;
}

/**
 * A small OpenAI-compatible chat completions server on 127.0.0.1, standing in for an LLM
 * provider: a real HTTP server the worker reaches over the network, answering with the usage,
 * status and delay each test chooses, and recording every request it got.
 */
export async function startOpenAiServer(defaults: Reply = {}): Promise<OpenAiServer> {
  const requests: RecordedRequest[] = [];
  const queued: Reply[] = [];
  const byModel = new Map<string, Reply[]>();
  const scripts = new Map<string, (request: RecordedRequest) => Reply>();
  const outages: Outage[] = [];

  const server = createServer((req, res) => {
    void answer(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(err) } }));
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const body = await readJson(req);
    const messages = Array.isArray(body.messages) ? (body.messages as RecordedRequest['messages']) : [];
    const record: RecordedRequest = {
      path: req.url ?? '',
      model: typeof body.model === 'string' ? body.model : null,
      messages,
      turn: messages.filter((m) => m.role === 'assistant').length + 1,
      tools: Array.isArray(body.tools)
        ? (body.tools as Array<{ function?: { name?: string } }>).map((t) => t.function?.name ?? '')
        : [],
      maxTokens:
        typeof body.max_tokens === 'number'
          ? body.max_tokens
          : typeof body.max_completion_tokens === 'number'
            ? body.max_completion_tokens
            : null,
      authorization: req.headers.authorization ?? null,
      idempotencyKey: header(req, 'idempotency-key'),
      status: null,
      aborted: false,
      at,
      stream: body.stream === true,
      includeUsage: (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true,
    };
    requests.push(record);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      return send(res, record, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    }
    const down = outages.find((o) => at < o.endsAt && (o.model === undefined || o.model === record.model));
    if (down) {
      return send(res, record, down.status, { error: { message: `simulated outage ${down.status}` } }, down.headers);
    }
    const scripted = record.model === null ? undefined : scripts.get(record.model);
    const reply = queued.shift() ?? scripted?.(record) ?? modelReply(record.model) ?? defaults;
    if (reply.until) await reply.until;
    if (reply.delayMs) {
      const gone = await waitOrClose(res, reply.delayMs);
      if (gone) {
        record.aborted = true;
        return;
      }
    }
    const status = reply.status ?? 200;
    if (reply.body) return send(res, record, status, reply.body(record), reply.headers);
    if (status !== 200) {
      const error = { error: { message: `simulated HTTP ${status}`, type: 'test' } };
      return send(res, record, status, error, reply.headers);
    }
    const lastUser = [...record.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const toolCalls = reply.toolCalls?.map((call, i) => ({
      id: call.id ?? `call_${requests.length}_${i}`,
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
    const message = toolCalls?.length
      ? { role: 'assistant', content: reply.content ?? null, tool_calls: toolCalls }
      : { role: 'assistant', content: reply.content ?? lastUser };
    if (record.stream) return streamAnswer(res, record, reply, message, toolCalls ?? []);
    send(res, record, 200, {
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      model: record.model,
      choices: [{ index: 0, message, finish_reason: toolCalls?.length ? 'tool_calls' : 'stop' }],
      ...(reply.usage && {
        usage: {
          prompt_tokens: reply.usage.promptTokens,
          completion_tokens: reply.usage.completionTokens,
          total_tokens: reply.usage.promptTokens + reply.usage.completionTokens,
          prompt_tokens_details: { cached_tokens: reply.usage.cachedTokens ?? 0 },
        },
      }),
    });
  }

  function modelReply(model: string | null): Reply | undefined {
    const replies = model === null ? undefined : byModel.get(model);
    if (!replies?.length) return undefined;
    return replies.length > 1 ? replies.shift() : replies[0];
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    queue: (...replies) => void queued.push(...replies),
    model: (model, ...replies) => void byModel.set(model, replies),
    script: (model, script) => void scripts.set(model, script),
    outage: ({ forMs, ...given }) => {
      const outage = { ...given, endsAt: Date.now() + forMs };
      outages.push(outage);
      return { end: () => void (outage.endsAt = 0) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One tool call the assistant asked for earlier in a conversation, with the result it got back. */
export interface ToolExchange {
  name: string;
  arguments: unknown;
  /** What the agent returned to the model for the call (`error: ...` for a tool error), null before it answered. */
  content: string | null;
}

/**
 * The tool calls of a request's conversation, oldest first, each paired with its result by call id: what a
 * script reads to act on earlier answers (a run id from one tool, a cursor from another), as a model would.
 */
export function toolExchanges(request: RecordedRequest): ToolExchange[] {
  const results = new Map(
    request.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content] as const),
  );
  return request.messages.flatMap((m) =>
    ((m.tool_calls ?? []) as Array<{ id: string; function: { name: string; arguments: string } }>).map((call) => ({
      name: call.function.name,
      arguments: parseOr(call.function.arguments),
      content: results.get(call.id) ?? null,
    })),
  );
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

type Message = { content: string | null };
type Call = { id: string; function: { name: string; arguments: string } };

/**
 * The answer as OpenAI streams a chat completion: SSE `data:` chunks of `chat.completion.chunk`, the content in
 * pieces, each tool call's name and then its arguments in pieces, the finish reason, usage in a last chunk with
 * no choices when `stream_options.include_usage` asked for it, then `data: [DONE]`.
 */
async function streamAnswer(
  res: ServerResponse,
  record: RecordedRequest,
  reply: Reply,
  message: Message,
  calls: Call[],
): Promise<void> {
  record.status = 200;
  res.writeHead(200, { ...reply.headers, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const id = `chatcmpl-${record.at}`;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: record.model, choices, ...extra })}\n\n`,
    );
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, finish_reason: finish }]);
  delta({ role: 'assistant', content: '' });
  const content = message.content ?? '';
  const hold = reply.hold;
  let sent = 0;
  for (const piece of pieces(content)) {
    if (hold && sent < hold.afterChars && sent + piece.length >= hold.afterChars) {
      const cut = hold.afterChars - sent;
      delta({ content: piece.slice(0, cut) });
      if (hold.cut) {
        // Cut once what was written reached the client: a stream that began, then broke.
        await new Promise((resolve) => setTimeout(resolve, 200));
        res.destroy();
        record.aborted = true;
        return;
      }
      const gone = await new Promise<boolean>((resolve) => {
        res.once('close', () => resolve(true));
        void Promise.resolve(hold.resume).then(() => resolve(false));
      });
      if (gone) {
        record.aborted = true;
        return;
      }
      if (piece.length > cut) delta({ content: piece.slice(cut) });
    } else delta({ content: piece });
    sent += piece.length;
  }
  calls.forEach((call, index) => {
    delta({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
    });
    for (const piece of pieces(call.function.arguments))
      delta({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  delta({}, calls.length ? 'tool_calls' : 'stop');
  if (reply.usage && record.includeUsage) {
    chunk([], {
      usage: {
        prompt_tokens: reply.usage.promptTokens,
        completion_tokens: reply.usage.completionTokens,
        total_tokens: reply.usage.promptTokens + reply.usage.completionTokens,
        prompt_tokens_details: { cached_tokens: reply.usage.cachedTokens ?? 0 },
      },
    });
  }
  res.end('data: [DONE]\n\n');
}

/** A text in a few pieces, as a model streams it. */
export function pieces(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function send(
  res: ServerResponse,
  record: RecordedRequest,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  record.status = status;
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Resolves true when the client closed the connection before `ms` passed. */
function waitOrClose(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    res.on('close', onClose);
  });
}
