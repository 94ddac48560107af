/**
 * `teamrun dev --model mock`: a small OpenAI-compatible chat completions server on 127.0.0.1 that
 * answers with the scripted mock (mock-script.ts), so an agent plan runs with no model and no key.
 * A real HTTP server the worker reaches as it would a provider: only the answers are scripted.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MOCK_MODEL_NAME, mockAnswer, type MockMessage } from './mock-script';

/** A request body over this is refused (413): a conversation is bounded by the journal's 1 MiB. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface MockModelServer {
  /** For `worker.llm.baseUrl`: ends in `/v1`. */
  baseUrl: string;
  /** Chat completions answered so far. */
  answered(): number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * The answer as OpenAI streams a chat completion (what the AI SDK's providers ask for): SSE `data:` chunks of
 * `chat.completion.chunk`, the content, each tool call whole, the finish reason, the usage in a last chunk with no
 * choices, then `data: [DONE]`. The mock has its whole answer at once, so it sends it in one piece of each.
 */
function streamAnswer(
  res: ServerResponse,
  id: string,
  message: { content?: string | null; tool_calls?: Array<{ id: string; type: string; function: unknown }> },
  usage: { prompt_tokens: number; completion_tokens: number },
): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => {
    const body = { id, object: 'chat.completion.chunk', created: 0, model: MOCK_MODEL_NAME, choices, ...extra };
    res.write(`data: ${JSON.stringify(body)}\n\n`);
  };
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, finish_reason: finish }]);
  delta({ role: 'assistant', content: message.content ?? '' });
  const calls = message.tool_calls ?? [];
  calls.forEach((call, index) => delta({ tool_calls: [{ index, ...call }] }));
  delta({}, calls.length ? 'tool_calls' : 'stop');
  chunk([], { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
  res.end('data: [DONE]\n\n');
}

/** A rough token count (4 characters a token), so budgets and watch lines have figures. */
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** Starts the mock on `port` (0: any free port) of 127.0.0.1. */
export async function startMockModel(port = 0): Promise<MockModelServer> {
  let answered = 0;
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || !/^\/v1\/chat\/completions\/?$/.test(req.url ?? '')) {
        return send(res, 404, {
          error: {
            message: `the teamrun mock model answers POST /v1/chat/completions only, not ${req.method} ${req.url}`,
          },
        });
      }
      const raw = await readBody(req);
      if (raw === null) return send(res, 413, { error: { message: `request over ${MAX_BODY_BYTES} bytes` } });
      let body: { model?: unknown; messages?: unknown; tools?: unknown; stream?: unknown };
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        return send(res, 400, { error: { message: 'the body is not JSON' } });
      }
      const messages = Array.isArray(body.messages) ? (body.messages as MockMessage[]) : [];
      const tools = Array.isArray(body.tools)
        ? (body.tools as Array<{ function?: { name?: unknown } }>)
            .map((t) => t.function?.name)
            .filter((n): n is string => typeof n === 'string')
        : [];
      const model = typeof body.model === 'string' ? body.model : MOCK_MODEL_NAME;
      const answer = mockAnswer({ model, messages, tools });
      answered += 1;
      const toolCalls = answer.toolCalls.map((c, i) => ({
        id: `mock_${answered}_${i}`,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      }));
      const message = toolCalls.length
        ? { role: 'assistant', content: answer.content, tool_calls: toolCalls }
        : { role: 'assistant', content: answer.content ?? '' };
      const usage = { prompt_tokens: tokens(raw), completion_tokens: tokens(JSON.stringify(message)) };
      if (body.stream === true) return streamAnswer(res, `chatcmpl-mock-${answered}`, message, usage);
      send(res, 200, {
        id: `chatcmpl-mock-${answered}`,
        object: 'chat.completion',
        model: MOCK_MODEL_NAME,
        choices: [{ index: 0, message, finish_reason: toolCalls.length ? 'tool_calls' : 'stop' }],
        usage,
      });
    })().catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: `the mock model failed: ${String(err)}` } });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${bound}/v1`,
    answered: () => answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
