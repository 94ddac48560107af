import { randomBytes } from 'node:crypto';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HTTP_TIMEOUTS, serveHttp } from '../../src/mcp/http';

const token = randomBytes(32).toString('hex');

async function serve(host: string) {
  const http = await serveHttp({ host, port: 0, token, serverFor: () => new McpServer({ name: 't', version: '0' }) });
  onTestFinished(() => new Promise<void>((resolve) => http.close(() => resolve())));
  return { http, port: (http.address() as AddressInfo).port };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '0' } },
};

/** One POST with the token, its Host header as given (fetch cannot set Host: a raw request). */
function post(host: string, port: number, hostHeader: string): Promise<number> {
  const body = JSON.stringify(initialize);
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0)));
    socket.end(
      `POST /mcp HTTP/1.1\r\nHost: ${hostHeader}\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}

describe('the MCP HTTP door', () => {
  it('on another loopback address (127.0.0.2) checks the Host header too: a rebound name is refused', async () => {
    const { port } = await serve('127.0.0.2');
    expect(await post('127.0.0.2', port, `127.0.0.2:${port}`)).toBe(200);
    expect(await post('127.0.0.2', port, `rebound.example:${port}`)).toBe(403);
  });

  it('closes sockets that never finish their headers (or send nothing) within seconds, not minutes', async () => {
    const { port } = await serve('127.0.0.1');
    const sockets: Socket[] = [];
    // Each socket's life counts from its connection: on a loaded machine some of 200 connect seconds late.
    const connectedAt = new Map<Socket, number>();
    const closedAt = new Map<Socket, number>();
    for (let i = 0; i < 200; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.on('connect', () => connectedAt.set(socket, Date.now()));
      socket.on('close', () => closedAt.set(socket, Date.now()));
      // Half the sockets send half a request's headers, the other half nothing at all.
      if (i % 2 === 0) socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      sockets.push(socket);
    }
    onTestFinished(() => sockets.forEach((s) => s.destroy()));
    // Node's defaults held them 60 s and more (headersTimeout 60 s, checked every 30 s).
    const bound = HTTP_TIMEOUTS.headersMs + HTTP_TIMEOUTS.checkEveryMs + 20_000;
    const deadline = Date.now() + bound + 20_000;
    while (closedAt.size < sockets.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const lives = sockets.map((s) => (closedAt.get(s) ?? Date.now()) - (connectedAt.get(s) ?? Date.now()));
    const open = sockets.filter((s) => !closedAt.has(s));
    if (open.length) {
      process.stderr.write(
        `[mcp-http] ${open.length} socket(s) still open: ${open.filter((s) => !connectedAt.has(s)).length} never ` +
          `connected; the longest life ${Math.max(...lives)} ms\n`,
      );
    }
    expect(open).toHaveLength(0);
    expect(Math.max(...lives)).toBeLessThanOrEqual(bound);
  }, 80_000);
});
