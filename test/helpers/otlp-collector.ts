import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface OtlpCollector {
  /** What a traced process takes as OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  /** Every body sent to /v1/traces so far, as bytes read as latin1 (JSON or protobuf). */
  traces: () => string;
  close: () => Promise<void>;
}

/** A stand-in OTLP/HTTP collector on 127.0.0.1: it answers every export and keeps the trace bodies. */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  let traces = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const plain = req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
      if (req.url === '/v1/traces') traces += plain.toString('latin1');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    traces: () => traces,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
