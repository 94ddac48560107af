import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { header, readJson, sendJson, writeText, type ProviderRequest, type ProviderTurn } from './provider-sse';

/** Anthropic's usage fields: input not cached, output, and the prompt cache's reads and writes. */
export interface AnthropicUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

export interface AnthropicServer {
  /** The API root for `worker.models.<name>.baseUrl` (`.../v1`); the SDK posts to `/messages`. */
  baseUrl: string;
  requests: ProviderRequest[];
  close(): Promise<void>;
}

type Block = { type: string; text?: string; content?: unknown };

/**
 * A local server speaking Anthropic's Messages API, streamed as Anthropic documents it (`stream: true`): SSE events
 * message_start (usage with cache_creation_input_tokens and cache_read_input_tokens), content_block_start/delta/stop
 * for text (text_delta) and tool_use (input_json_delta), message_delta (stop_reason, output_tokens), message_stop.
 * An error status answers `{ type: "error", error }` as the API does (429 rate_limit_error, 529 overloaded_error).
 */
export async function startAnthropicServer(
  script: (request: ProviderRequest) => ProviderTurn<AnthropicUsage>,
): Promise<AnthropicServer> {
  const requests: ProviderRequest[] = [];
  const server = createServer((req, res) => {
    void answer(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }));
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const body = await readJson(req);
    const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role: string; content: unknown }>) : [];
    const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []));
    const record: ProviderRequest = {
      path: req.url ?? '',
      model: typeof body.model === 'string' ? body.model : null,
      turn: messages.filter((m) => m.role === 'assistant').length + 1,
      tools: Array.isArray(body.tools) ? (body.tools as Array<{ name: string }>).map((t) => t.name) : [],
      toolResults: blocks.filter((b) => b.type === 'tool_result').map((b) => textOf(b.content)),
      apiKey: header(req, 'x-api-key'),
      idempotencyKey: header(req, 'idempotency-key'),
      maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : null,
      stream: body.stream === true,
      status: null,
      aborted: false,
      at,
    };
    requests.push(record);
    if (req.method !== 'POST' || req.url !== '/v1/messages') {
      const error = { type: 'error', error: { type: 'not_found_error', message: `no route ${req.url}` } };
      return sendJson(res, record, 404, error);
    }
    const turn = script(record);
    if (turn.status && turn.status !== 200) {
      const type = turn.status === 429 ? 'rate_limit_error' : turn.status === 529 ? 'overloaded_error' : 'api_error';
      return sendJson(res, record, turn.status, { type: 'error', error: { type, message: 'simulated' } }, turn.headers);
    }
    record.status = 200;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const event = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    const usage = turn.usage ?? { inputTokens: 0, outputTokens: 0 };
    event('message_start', {
      message: {
        id: `msg_${requests.length}`,
        type: 'message',
        role: 'assistant',
        content: [],
        model: record.model,
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.inputTokens,
          cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
          cache_read_input_tokens: usage.cacheReadTokens ?? 0,
          output_tokens: 1,
        },
      },
    });
    let index = 0;
    if (turn.text !== undefined) {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      const delta = (text: string) => event('content_block_delta', { index, delta: { type: 'text_delta', text } });
      if (!(await writeText(turn.text, delta, res, record, turn.hold))) return;
      event('content_block_stop', { index: index++ });
    }
    for (const [i, call] of (turn.toolCalls ?? []).entries()) {
      const id = `toolu_${requests.length}_${i}`;
      event('content_block_start', { index, content_block: { type: 'tool_use', id, name: call.name, input: {} } });
      const json = (partial_json: string) =>
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
      await writeText(JSON.stringify(call.arguments), json, res, record);
      event('content_block_stop', { index: index++ });
    }
    event('message_delta', {
      delta: { stop_reason: turn.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    });
    event('message_stop', {});
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return (content as Block[]).map((b) => b.text ?? '').join('');
  return JSON.stringify(content);
}
