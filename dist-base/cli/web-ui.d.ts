import type { TeamrunConfig } from '../config/config';
export interface HostPort {
    host: string;
    port: number;
}
/** `host:port` (IPv6 in brackets) of a Temporal frontend address; the port defaults to 7233. */
export declare function parseAddress(address: string): HostPort;
export declare function isLocalHost(host: string): boolean;
/**
 * The Web UI port that goes with a local frontend port: the configured `devServer.uiPort` for
 * the configured dev server port, otherwise the dev server's own convention (frontend + 1000).
 */
export declare function uiPortFor(config: TeamrunConfig, frontendPort: number): number;
/** The Web UI base URL when the address is a local dev server; null for a remote cluster. */
export declare function localWebUi(config: TeamrunConfig, address?: string): string | null;
export declare function workflowUrl(webUi: string, namespace: string, workflowId: string): string;
/** The Web UI link of a run, when the configured address is local. */
export declare function runUrl(config: TeamrunConfig, workflowId: string): string | null;
