/**
 * One MCP server as the worker reaches it, through the official SDK's Client: a stdio command
 * started for one attempt, or a Streamable HTTP URL the worker's attempts share. A connection
 * that breaks (the process exits, the server stops answering) fails the call in flight and is
 * opened again for the next one, a bounded number of times.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpHttpServer, McpStdioServer } from '../../config/mcp-servers';
import { boundedText, mcpResultText } from './content';
import { guardedCommand } from './mcp-guard';
import type { ToolCallResult } from './types';

export const MCP_LIMITS = {
  /** Starting (or reaching) a server and its `initialize` handshake. */
  connectTimeoutMs: 30_000,
  /** Opens of one connection: the first and the restarts after it broke. */
  opens: 6,
  toolsPerServer: 256,
  listPages: 16,
  /** One JSON-RPC message from a stdio server; one HTTP response body. */
  messageBytes: 16 * 1024 * 1024,
  /** The end of a stdio server's stderr kept to explain why it died. */
  stderrTailBytes: 2048,
} as const;

/** The `_meta` key every `tools/call` carries the attempt's fencing token in (CONTRACT). */
export const FENCING_TOKEN_META = 'teamrun/fencingToken';

type ClientSdk = typeof import('@modelcontextprotocol/sdk/client/index.js');
type StdioSdk = typeof import('@modelcontextprotocol/sdk/client/stdio.js');
type HttpSdk = typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
type TypesSdk = typeof import('@modelcontextprotocol/sdk/types.js');

interface McpSdk {
  Client: ClientSdk['Client'];
  StdioClientTransport: StdioSdk['StdioClientTransport'];
  StreamableHTTPClientTransport: HttpSdk['StreamableHTTPClientTransport'];
  ErrorCode: TypesSdk['ErrorCode'];
  McpError: TypesSdk['McpError'];
}

let loaded: McpSdk | undefined;

/**
 * The MCP SDK's client side, loaded when a connection first opens: a worker whose attempts call no MCP tool never
 * loads it (about 60 modules, the SDK's zod schemas among them; docs/benchmarks.md, issue 42).
 */
function mcpSdk(): McpSdk {
  loaded ??= {
    Client: (require('@modelcontextprotocol/sdk/client/index.js') as ClientSdk).Client,
    StdioClientTransport: (require('@modelcontextprotocol/sdk/client/stdio.js') as StdioSdk).StdioClientTransport,
    StreamableHTTPClientTransport: (require('@modelcontextprotocol/sdk/client/streamableHttp.js') as HttpSdk)
      .StreamableHTTPClientTransport,
    ErrorCode: (require('@modelcontextprotocol/sdk/types.js') as TypesSdk).ErrorCode,
    McpError: (require('@modelcontextprotocol/sdk/types.js') as TypesSdk).McpError,
  };
  return loaded;
}

export class McpConnection {
  private client: Client | undefined;
  private opening: Promise<Client> | undefined;
  private opens = 0;
  private stderrTail = '';
  private closed = false;

  private shared = false;

  private constructor(
    readonly server: string,
    private readonly transport: (stderr: (chunk: string) => void) => Transport,
  ) {}

  /** Shared by the worker's attempts: opened again after any number of breaks (the calls in flight still fail). */
  sharedByWorker(): this {
    this.shared = true;
    return this;
  }

  /**
   * A stdio server, started on first use with exactly `env` (the caller's allowlist), under the
   * guard that ends its process group with it and with the worker (mcp-guard.ts). A server the
   * worker's attempts share is started again whenever it broke, with no bound on the opens.
   */
  static stdio(
    server: string,
    spec: McpStdioServer,
    env: Record<string, string>,
    sandbox: string[] | null = null,
  ): McpConnection {
    // In the worker's sandbox (worker.sandbox), bubblewrap runs the server: `sandbox` is its arguments.
    const argv = [...(sandbox ?? []), spec.command, ...(spec.args ?? [])];
    return new McpConnection(server, (stderr) => {
      const transport = new (mcpSdk().StdioClientTransport)({
        ...guardedCommand(argv[0]!, argv.slice(1)),
        env,
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
        // Piped, never inherited: the worker's log is not the server's, and its tail explains a death.
        stderr: 'pipe',
        maxBufferSize: MCP_LIMITS.messageBytes,
      });
      transport.stderr?.on('data', (chunk: Buffer) => stderr(chunk.toString('utf8')));
      return transport;
    });
  }

  /** A Streamable HTTP server, with `headers` (values from the worker's environment) on every request. */
  static http(server: string, spec: McpHttpServer, headers: Record<string, string>): McpConnection {
    return new McpConnection(
      server,
      () =>
        new (mcpSdk().StreamableHTTPClientTransport)(new URL(spec.url), {
          requestInit: { headers },
          fetch: cappedFetch(MCP_LIMITS.messageBytes),
        }),
    );
  }

  /** The server's tools, at most MCP_LIMITS.toolsPerServer of them. */
  async listTools(signal: AbortSignal): Promise<Tool[]> {
    const client = await this.connect(signal);
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MCP_LIMITS.listPages && tools.length < MCP_LIMITS.toolsPerServer; page += 1) {
      const listed = await client
        .listTools(cursor ? { cursor } : {}, { signal, timeout: MCP_LIMITS.connectTimeoutMs })
        .catch((err: unknown) => this.broken(client, err));
      tools.push(...listed.tools.slice(0, MCP_LIMITS.toolsPerServer - tools.length));
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /** Calls `tool` with the attempt's fencing token in `_meta`; every failure is `{ ok: false }`. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    fencingToken: number,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolCallResult> {
    try {
      const client = await this.connect(options.signal);
      const result = await client
        .callTool({ name: tool, arguments: args, _meta: { [FENCING_TOKEN_META]: fencingToken } }, undefined, {
          signal: options.signal,
          timeout: options.timeoutMs,
        })
        .catch((err: unknown) => this.broken(client, err));
      const text = mcpResultText(result);
      return result.isError ? { ok: false, error: text || 'the tool reported an error' } : { ok: true, content: text };
    } catch (err) {
      return { ok: false, error: this.describe(err, options) };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private connect(signal: AbortSignal): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.opening ??= this.open(signal).finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async open(signal: AbortSignal): Promise<Client> {
    if (this.closed) throw new Error(`MCP server "${this.server}" is closed`);
    if (this.opens >= MCP_LIMITS.opens && !this.shared) {
      throw new Error(
        `MCP server "${this.server}" broke ${this.opens} times; it is not started again for this attempt` +
          this.lastWords(),
      );
    }
    this.opens += 1;
    this.stderrTail = '';
    const client = new (mcpSdk().Client)({ name: 'teamrun', version: '1' }, { capabilities: {} });
    const transport = this.transport((chunk) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-MCP_LIMITS.stderrTailBytes);
    });
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
    };
    try {
      await client.connect(transport, { signal, timeout: MCP_LIMITS.connectTimeoutMs });
    } catch (err) {
      await client.close().catch(() => undefined);
      throw new Error(`MCP server "${this.server}" did not start: ${(err as Error).message}${this.lastWords()}`);
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new Error(`MCP server "${this.server}" is closed`);
    }
    this.client = client;
    return client;
  }

  /**
   * A request failed. An error the server answered with leaves the connection as it is; anything
   * else (the process gone, the connection lost) drops it, so the next call opens it again.
   */
  private async broken(client: Client, err: unknown): Promise<never> {
    const { ErrorCode, McpError } = mcpSdk();
    const answered = err instanceof McpError && err.code !== ErrorCode.ConnectionClosed;
    if (!answered && !isAbort(err) && this.client === client) {
      this.client = undefined;
      await client.close().catch(() => undefined);
    }
    throw err;
  }

  private describe(err: unknown, options: { signal: AbortSignal; timeoutMs: number }): string {
    const tool = `MCP server "${this.server}"`;
    if (options.signal.aborted || isAbort(err)) return `the call to ${tool} was cancelled`;
    const { ErrorCode, McpError } = mcpSdk();
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
      return `${tool} did not answer within ${options.timeoutMs} ms`;
    if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed)
      return `${tool} closed the connection during the call (it is started again for the next call)${this.lastWords()}`;
    return boundedText((err as Error)?.message ?? String(err));
  }

  private lastWords(): string {
    const tail = this.stderrTail.trim();
    return tail ? `; its stderr ended: ${tail}` : '';
  }
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** fetch with each response body cut off (an error) past `maxBytes`: a server cannot flood the worker. */
function cappedFetch(maxBytes: number) {
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    if (!response.body) return response;
    let seen = 0;
    const capped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(new Error(`MCP response over ${maxBytes} bytes`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(capped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
