import type { TeamrunConfig } from '../config/config';

export interface HostPort {
  host: string;
  port: number;
}

/** `host:port` (IPv6 in brackets) of a Temporal frontend address; the port defaults to 7233. */
export function parseAddress(address: string): HostPort {
  const match = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(address.trim());
  if (!match || !match[1]) throw new Error(`not a host:port address: "${address}"`);
  return { host: match[1], port: match[2] ? Number(match[2]) : 7233 };
}

export function isLocalHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '0.0.0.0' || host.startsWith('127.');
}

/**
 * The Web UI port that goes with a local frontend port: the configured `devServer.uiPort` for
 * the configured dev server port, otherwise the dev server's own convention (frontend + 1000).
 */
export function uiPortFor(config: TeamrunConfig, frontendPort: number): number {
  return frontendPort === config.devServer.port ? config.devServer.uiPort : frontendPort + 1_000;
}

/** The Web UI base URL when the address is a local dev server; null for a remote cluster. */
export function localWebUi(config: TeamrunConfig, address = config.connection.address): string | null {
  const { host, port } = parseAddress(address);
  return isLocalHost(host) ? `http://localhost:${uiPortFor(config, port)}` : null;
}

export function workflowUrl(webUi: string, namespace: string, workflowId: string): string {
  return `${webUi}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

/** The Web UI link of a run, when the configured address is local. */
export function runUrl(config: TeamrunConfig, workflowId: string): string | null {
  const webUi = localWebUi(config);
  return webUi && workflowUrl(webUi, config.connection.namespace, workflowId);
}
