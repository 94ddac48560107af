/**
 * `teamrun mcp --http`: Streamable HTTP at `/mcp`, stateless (a server and transport per POST, so
 * nothing is held between calls), behind `Authorization: Bearer $TEAMRUN_MCP_TOKEN` compared in
 * constant time. Bodies are bounded; on a loopback address the Host header must be that address,
 * so a web page cannot reach the server through DNS rebinding.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TeamrunError } from '../errors';

/** A plan may be up to Temporal's 2 MB payload limit; JSON-RPC framing and escaping add some. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A shorter token is refused at start: it would be guessable. */
export const MIN_TOKEN_CHARS = 16;
/**
 * Nor a long one made of few characters (`aaaaaaaaaaaaaaaa`): its entropy, estimated from the
 * frequencies of its characters, must reach this (16 random bytes as hex or base64 do).
 */
export const MIN_TOKEN_BITS = 64;
/** A client has this long to send its headers, and its whole request; idle keep-alive sockets close sooner. */
export const HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 60_000, keepAliveMs: 5_000, checkEveryMs: 1_000 };
export const TOKEN_ENV = 'TEAMRUN_MCP_TOKEN';
export const MCP_PATH = '/mcp';

export class McpHttpConfigError extends TeamrunError {
  readonly code = 'mcp_http_config';
}

export interface HttpOptions {
  host: string;
  port: number;
  /** From `httpToken`: the server never starts without one. */
  token: string;
  /** A fresh MCP server for each request. */
  serverFor: () => McpServer;
}

/** The token from the environment, refused when absent or short. */
export function httpToken(env: NodeJS.ProcessEnv): string {
  const token = env[TOKEN_ENV];
  if (!token)
    throw new McpHttpConfigError(
      `teamrun mcp --http needs a bearer token: set ${TOKEN_ENV} (for example to \`openssl rand -hex 32\`)`,
    );
  if (token.length < MIN_TOKEN_CHARS)
    throw new McpHttpConfigError(`${TOKEN_ENV} is ${token.length} characters: give at least ${MIN_TOKEN_CHARS}`);
  const bits = tokenBits(token);
  if (bits < MIN_TOKEN_BITS)
    throw new McpHttpConfigError(
      `${TOKEN_ENV} looks guessable: about ${Math.floor(bits)} bits of entropy, under ${MIN_TOKEN_BITS} ` +
        '(too few distinct characters); generate one, e.g. `openssl rand -hex 32`',
    );
  return token;
}

/** The token's entropy as its own character frequencies estimate it (Shannon), in bits. */
export function tokenBits(token: string): number {
  const counts = new Map<string, number>();
  let n = 0;
  for (const ch of token) {
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
    n++;
  }
  let perChar = 0;
  for (const c of counts.values()) perChar -= (c / n) * Math.log2(c / n);
  return perChar * n;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares digests, so neither the length nor any prefix of the token shows in the time taken. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

function jsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RangeError(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Any loopback address (all of 127.0.0.0/8, ::1, an IPv4-mapped one), not just the usual three. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK.has(bare)) return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

export async function serveHttp(options: HttpOptions): Promise<Server> {
  const { token } = options;
  // Half-open or idle sockets do not stay: a client that sends no headers is cut off within seconds.
  const http = createServer(
    {
      headersTimeout: HTTP_TIMEOUTS.headersMs,
      requestTimeout: HTTP_TIMEOUTS.requestMs,
      keepAliveTimeout: HTTP_TIMEOUTS.keepAliveMs,
      connectionsCheckingInterval: HTTP_TIMEOUTS.checkEveryMs,
    },
    (req, res) => void handle(req, res),
  );
  // Each socket gets until headersMs from its connection to complete a request's headers, else it is
  // destroyed. Node's own check (headersTimeout, run every checkEveryMs) ends such sockets too on
  // Node 20 (measured: 200 silent or half-sent sockets, all closed at 10 s with this timer removed);
  // the timer keeps the bound whatever the check's phase or the Node version.
  const waiting = new WeakMap<Socket, NodeJS.Timeout>();
  http.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), HTTP_TIMEOUTS.headersMs);
    timer.unref();
    waiting.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });
  http.on('request', (req: IncomingMessage) => clearTimeout(waiting.get(req.socket)));
  let allowedHosts: string[] | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== MCP_PATH) return jsonRpcError(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
    if (!bearerMatches(req.headers.authorization, token))
      return jsonRpcError(res, 401, `unauthorized: send Authorization: Bearer <${TOKEN_ENV}>`, {
        'www-authenticate': 'Bearer realm="teamrun"',
      });
    if (req.method !== 'POST')
      return jsonRpcError(res, 405, 'method not allowed: this server is stateless, POST each message', {
        allow: 'POST',
      });
    let body: unknown;
    try {
      body = await readBody(req);
    } catch (err) {
      const tooLarge = err instanceof RangeError;
      return jsonRpcError(res, tooLarge ? 413 : 400, tooLarge ? err.message : 'request body is not JSON');
    }
    const server = options.serverFor();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableDnsRebindingProtection: allowedHosts !== undefined,
      allowedHosts,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (err) {
      if (!res.headersSent) jsonRpcError(res, 500, `internal error: ${(err as Error).message}`);
    }
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  // On loopback the Host header must name this server (DNS rebinding): the address bound, and the usual names.
  if (isLoopback(options.host)) {
    const names = new Set([...LOOPBACK, options.host.replace(/^\[|\]$/g, '')]);
    allowedHosts = [...names].map((h) => `${h.includes(':') ? `[${h}]` : h}:${port}`);
  }
  return http;
}
