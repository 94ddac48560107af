import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { header, readJson, sendJson, writeText, type ProviderRequest, type ProviderTurn } from './provider-sse';

/** Gemini's usageMetadata: the prompt (cached part included), the answer, the cache hit and the thinking. */
export interface GoogleUsage {
  promptTokens: number;
  candidatesTokens: number;
  cachedTokens?: number;
  thoughtsTokens?: number;
}

export interface GoogleServer {
  /** The API root for `worker.models.<name>.baseUrl` (`.../v1beta`). */
  baseUrl: string;
  requests: ProviderRequest[];
  close(): Promise<void>;
}

type Part = { text?: string; functionCall?: unknown; functionResponse?: { response?: { content?: unknown } } };

/**
 * A local server speaking the Generative Language API's `models/<model>:streamGenerateContent?alt=sse`: SSE `data:`
 * chunks of GenerateContentResponse (candidates[0].content.parts with text, then whole functionCall parts), the
 * last one with finishReason and usageMetadata (promptTokenCount, candidatesTokenCount, cachedContentTokenCount,
 * thoughtsTokenCount). An error status answers `{ error: { code, message, status } }` as Google does.
 */
export async function startGoogleServer(
  script: (request: ProviderRequest) => ProviderTurn<GoogleUsage>,
): Promise<GoogleServer> {
  const requests: ProviderRequest[] = [];
  const server = createServer((req, res) => {
    void answer(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 500, message: String(err), status: 'INTERNAL' } }));
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const body = await readJson(req);
    const contents = Array.isArray(body.contents) ? (body.contents as Array<{ role: string; parts?: Part[] }>) : [];
    const parts = contents.flatMap((c) => c.parts ?? []);
    const route = /^\/v1beta\/models\/([^:/]+):streamGenerateContent\?alt=sse$/.exec(req.url ?? '');
    const declarations = (Array.isArray(body.tools) ? body.tools : []) as Array<{
      functionDeclarations?: Array<{ name: string }>;
    }>;
    const config = body.generationConfig as { maxOutputTokens?: number } | undefined;
    const record: ProviderRequest = {
      path: req.url ?? '',
      model: route ? decodeURIComponent(route[1]) : null,
      turn: contents.filter((c) => c.role === 'model').length + 1,
      tools: declarations.flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name)),
      toolResults: parts.filter((p) => p.functionResponse).map((p) => String(p.functionResponse?.response?.content)),
      apiKey: header(req, 'x-goog-api-key'),
      idempotencyKey: header(req, 'idempotency-key'),
      maxTokens: typeof config?.maxOutputTokens === 'number' ? config.maxOutputTokens : null,
      stream: route !== null,
      status: null,
      aborted: false,
      at,
    };
    requests.push(record);
    if (req.method !== 'POST' || !route) {
      return sendJson(res, record, 404, { error: { code: 404, message: `no route ${req.url}`, status: 'NOT_FOUND' } });
    }
    const turn = script(record);
    if (turn.status && turn.status !== 200) {
      const error = {
        code: turn.status,
        message: 'simulated',
        status: turn.status === 429 ? 'RESOURCE_EXHAUSTED' : 'X',
      };
      return sendJson(res, record, turn.status, { error }, turn.headers);
    }
    record.status = 200;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const chunk = (chunkParts: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(
        `data: ${JSON.stringify({
          candidates: [{ content: { role: 'model', parts: chunkParts }, index: 0, ...extra }],
          modelVersion: record.model,
        })}\r\n\r\n`,
      );
    if (turn.text !== undefined) {
      if (!(await writeText(turn.text, (text) => chunk([{ text }]), res, record, turn.hold))) return;
    }
    const calls = (turn.toolCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.arguments } }));
    if (calls.length) chunk(calls);
    const usage = turn.usage ?? { promptTokens: 0, candidatesTokens: 0 };
    res.write(
      `data: ${JSON.stringify({
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: {
          promptTokenCount: usage.promptTokens,
          candidatesTokenCount: usage.candidatesTokens,
          ...(usage.cachedTokens ? { cachedContentTokenCount: usage.cachedTokens } : {}),
          ...(usage.thoughtsTokens ? { thoughtsTokenCount: usage.thoughtsTokens } : {}),
          totalTokenCount: usage.promptTokens + usage.candidatesTokens + (usage.thoughtsTokens ?? 0),
        },
        modelVersion: record.model,
      })}\r\n\r\n`,
    );
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1beta`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
