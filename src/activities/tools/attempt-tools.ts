import type { FailureType } from '../../contract';
import { nearest } from '../../plan/graph';
import { RESERVED_TOOL_SERVER, ToolPatternSchema, serverOf, wildcardServer } from '../../plan/tool-names';
import { ExecutorError } from '../executors/types';
import type { TeamrunConfig } from '../../config/config';
import { Redactor } from '../redact';
import type { CustomTool } from './define-tool';
import type { McpConnection } from './mcp-connection';
import { serverTools, type ServerTools } from './mcp-tools';
import type { ToolAttempt, ToolCallResult, ToolSpec, Toolbox } from './types';

/** A tool call's time when the task sets no `toolTimeoutMs`. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** What an attempt's toolbox is made from: the worker's part, shared by its attempts. */
export interface WorkerToolSources {
  config: TeamrunConfig;
  custom: ReadonlyMap<string, CustomTool>;
  /** HTTP servers, one connection each for the whole worker. */
  shared: ReadonlyMap<string, McpConnection>;
  /** A stdio server's connection for one attempt (with the attempt's gateway access, when it has one). */
  stdio(server: string, attempt: Omit<ToolAttempt, 'signal'>): McpConnection | undefined;
  redactor: Redactor;
}

/** Where a resolved name's calls go. */
type Target = { spec: ToolSpec } & ({ server: string; original: string } | { custom: string });

export const TOOL_FAILURE_TYPES = {
  /** `resolve` met a name the worker does not have: the plan is wrong, retrying will not help (non-retryable). */
  unknownTool: 'TeamUnknownTool',
  /** A server the task names could not list its tools: perhaps it will for the next attempt (retryable). */
  serverFailed: 'TeamToolServerFailed',
} as const satisfies Record<string, FailureType>;

/** One attempt's toolbox: the calls it may make are the names `resolve` gave it. */
export class AttemptTools implements Toolbox {
  private readonly started = new Map<string, McpConnection>();
  private readonly listings = new Map<string, Promise<ServerTools>>();
  private readonly targets = new Map<string, Target>();
  private closed = false;
  private readonly attemptRedactor: Redactor;

  constructor(
    private readonly sources: WorkerToolSources,
    private readonly attempt: ToolAttempt,
  ) {
    const secret = attempt.access?.secret;
    this.attemptRedactor = new Redactor(secret ? [{ name: 'TEAMRUN_ATTEMPT_SECRET', value: secret }] : []);
    // A stopped attempt stops its servers at once, whatever the loop is doing.
    if (attempt.signal.aborted) this.closed = true;
    else attempt.signal.addEventListener('abort', () => void this.close(), { once: true });
  }

  async resolve(patterns: readonly string[]): Promise<ToolSpec[]> {
    const found = new Map<string, Target>();
    // Every server named is started at once; each listing is awaited (and its failure met) in turn below.
    for (const pattern of patterns) {
      const server = wildcardServer(pattern) ?? serverOf(pattern);
      if (server !== undefined && this.isServer(server)) this.listing(server).catch(() => undefined);
    }
    for (const pattern of patterns) {
      if (!ToolPatternSchema.safeParse(pattern).success) throw unknownTool(`"${pattern}" is not a tool name`);
      const wildcard = wildcardServer(pattern);
      const server = wildcard ?? serverOf(pattern);
      // teamrun's own tools live in the agent loop.
      if (server === RESERVED_TOOL_SERVER) continue;
      const mcp = server !== undefined && this.isServer(server);
      const listing = mcp ? await this.listing(server) : undefined;
      if (wildcard !== undefined) {
        const customs = [...this.sources.custom.keys()].filter((name) => serverOf(name) === wildcard);
        if (!mcp && customs.length === 0) throw unknownTool(this.unknownServer(pattern, wildcard));
        for (const name of customs) found.set(name, this.custom(name));
        for (const [name, tool] of listing?.tools ?? []) found.set(name, { server: wildcard, ...tool });
      } else if (this.sources.custom.has(pattern)) {
        found.set(pattern, this.custom(pattern));
      } else if (listing && server !== undefined) {
        const tool = listing.tools.get(pattern);
        if (!tool) throw unknownTool(unknownInServer(pattern, server, listing));
        found.set(pattern, { server, ...tool });
      } else {
        throw unknownTool(
          server !== undefined ? this.unknownServer(pattern, server) : this.unknownName(pattern, this.customNames()),
        );
      }
    }
    for (const [name, target] of found) this.targets.set(name, target);
    return [...found.values()].map((target) => target.spec);
  }

  async call(
    name: string,
    args: unknown,
    options: { signal: AbortSignal; timeoutMs?: number },
  ): Promise<ToolCallResult> {
    const target = this.targets.get(name);
    if (this.closed) return { ok: false, error: 'the attempt has ended: its tools are closed' };
    if (!target) {
      const known = [...this.targets.keys()];
      const guess = nearest(name, known);
      return {
        ok: false,
        error:
          `unknown tool "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}; ` +
          `this task's tools: ${known.join(', ') || 'none'}`,
      };
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const signal = AbortSignal.any([options.signal, this.attempt.signal]);
    const result =
      'custom' in target
        ? await this.callCustom(target.custom, args, signal, timeoutMs)
        : await this.callMcp(target.server, target.original, args, signal, timeoutMs);
    // The worker's secrets, and the attempt's own, which its stdio servers hold (toolbox.ts): never to the model.
    const redact = (text: string) => this.attemptRedactor.text(this.sources.redactor.text(text));
    return result.ok ? { ok: true, content: redact(result.content) } : { ok: false, error: redact(result.error) };
  }

  async close(): Promise<void> {
    this.closed = true;
    const started = [...this.started.values()];
    this.started.clear();
    await Promise.all(started.map((connection) => connection.close()));
  }

  private async callMcp(
    server: string,
    tool: string,
    args: unknown,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<ToolCallResult> {
    const given = args ?? {};
    if (typeof given !== 'object' || Array.isArray(given)) {
      return { ok: false, error: 'invalid arguments: (arguments): must be a JSON object' };
    }
    const connection = this.connection(server);
    if (!connection) return { ok: false, error: 'the attempt has ended: its tools are closed' };
    return connection.call(tool, given as Record<string, unknown>, this.attempt.fencingToken, { signal, timeoutMs });
  }

  private async callCustom(
    name: string,
    args: unknown,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<ToolCallResult> {
    const tool = this.sources.custom.get(name);
    if (!tool) return { ok: false, error: `unknown tool "${name}"` };
    const timeout = AbortSignal.timeout(timeoutMs);
    const bounded = AbortSignal.any([signal, timeout]);
    const { signal: _attemptSignal, access: _access, ...identity } = this.attempt;
    // A tool that ignores its signal still answers the model when the time is up; what it does after is its own.
    const stopped = new Promise<ToolCallResult>((resolve) => {
      const answer = () =>
        resolve({
          ok: false,
          error: timeout.aborted
            ? `tool "${name}" did not answer within ${timeoutMs} ms`
            : `the call to "${name}" was cancelled`,
        });
      if (bounded.aborted) answer();
      else bounded.addEventListener('abort', answer, { once: true });
    });
    return Promise.race([tool.invoke(args, { ...identity, signal: bounded }), stopped]);
  }

  private isServer(server: string): boolean {
    return Object.hasOwn(this.sources.config.worker.mcpServers, server);
  }

  /** The server's connection: the worker's for an HTTP server, this attempt's own for a stdio one. */
  private connection(server: string): McpConnection | undefined {
    const shared = this.sources.shared.get(server);
    if (shared) return shared;
    if (this.closed) return undefined;
    let own = this.started.get(server);
    if (!own) {
      const { signal: _signal, ...identity } = this.attempt;
      own = this.sources.stdio(server, identity);
      if (own) this.started.set(server, own);
    }
    return own;
  }

  private listing(server: string): Promise<ServerTools> {
    let listing = this.listings.get(server);
    if (!listing) {
      const connection = this.connection(server);
      listing = connection
        ? connection.listTools(this.attempt.signal).then(
            (tools) => serverTools(server, tools),
            (err: unknown) => {
              throw new ExecutorError(
                this.sources.redactor.text(
                  `MCP server "${server}" could not list its tools: ${(err as Error).message}`,
                ),
                { type: TOOL_FAILURE_TYPES.serverFailed },
              );
            },
          )
        : Promise.reject(
            new ExecutorError('the attempt has ended: its tools are closed', { type: TOOL_FAILURE_TYPES.serverFailed }),
          );
      this.listings.set(server, listing);
    }
    return listing;
  }

  private custom(name: string): Target {
    const tool = this.sources.custom.get(name);
    if (!tool) throw unknownTool(`unknown tool "${name}"`);
    return {
      custom: name,
      spec: {
        name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.parameters,
        idempotent: tool.idempotent,
      },
    };
  }

  private customNames(): string[] {
    return [...this.sources.custom.keys()];
  }

  private unknownServer(pattern: string, server: string): string {
    const servers = [...Object.keys(this.sources.config.worker.mcpServers), ...this.customNames().map(serverOf)];
    const guess = nearest(server, [...new Set(servers.filter((s): s is string => s !== undefined))]);
    return `unknown tool "${pattern}": this worker has no MCP server or custom tools "${server}"${
      guess ? ` (did you mean "${guess}"?)` : ''
    }`;
  }

  private unknownName(pattern: string, candidates: string[]): string {
    const guess = nearest(pattern, candidates);
    return `unknown tool "${pattern}"${guess ? ` (did you mean "${guess}"?)` : ''}`;
  }
}

function unknownInServer(name: string, server: string, listing: ServerTools): string {
  const why = listing.leftOut.get(name);
  if (why) return `tool "${name}" of MCP server "${server}" is left out: ${why}`;
  const guess = nearest(name, [...listing.tools.keys()]);
  return `unknown tool "${name}": MCP server "${server}" has no such tool${guess ? ` (did you mean "${guess}"?)` : ''}`;
}

function unknownTool(message: string): ExecutorError {
  return new ExecutorError(message, { nonRetryable: true, type: TOOL_FAILURE_TYPES.unknownTool });
}
