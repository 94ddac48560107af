import type { PayloadCodec } from '@temporalio/common';
import type { CodecConfig, CodecServerConfig } from './config';
export interface CodecServerOptions {
    codec: PayloadCodec;
    /** The bearer token every request must present (header, or path for a Web UI that cannot send one). */
    token: string;
    corsOrigins: readonly string[];
    /** Namespaces it answers for, by the X-Namespace header. */
    namespaces: readonly string[];
    host: string;
    port: number;
    /** Larger request bodies are refused (413). */
    maxBodyBytes?: number;
    /** One line per request: method, route, status, namespace; never a payload or the token. */
    log?: (line: string) => void;
}
export interface CodecServer {
    url: string;
    close(): Promise<void>;
}
/**
 * The path as the log may show it: never the token, whatever the route. The segment after `/t/`
 * is hidden even when it is not the token (a mistyped token is close to the real one), and the
 * token is hidden wherever else it appears, as written or percent-encoded.
 */
export declare function loggedPath(pathname: string, token: string): string;
/** The token named by `codec.server.tokenEnv` / `tokenFile` (relative to the config file's directory). */
export declare function readToken(server: CodecServerConfig, baseDir: string, env?: NodeJS.ProcessEnv): string;
/**
 * Temporal's codec server protocol (what the Web UI and `temporal --codec-endpoint` call):
 * `POST /encode` and `POST /decode` with `{ "payloads": [...] }` in and out, the namespace in
 * `X-Namespace`. Every request needs the token; browsers get CORS only for the listed origins.
 */
export declare function startCodecServer(options: CodecServerOptions): Promise<CodecServer>;
/** What `teamrun codec-server` and `teamrun dev` need of the config. */
export interface ServeSettings {
    codec?: CodecConfig;
    file?: string | null;
    connection: {
        namespace: string;
    };
}
export interface ConfiguredCodecServer extends CodecServer {
    /** The endpoint for a Web UI that cannot send a header (the token in the path). */
    uiEndpoint: string;
    namespaces: readonly string[];
    corsOrigins: readonly string[];
}
/**
 * Starts the codec server `codec.server` describes, with the config's keys and token.
 * `extraOrigins` adds UI origins the caller knows of (the embedded Web UI of `teamrun dev`).
 */
export declare function startConfiguredCodecServer(config: ServeSettings, options?: {
    host?: string;
    port?: number;
    extraOrigins?: string[];
    log?: (line: string) => void;
    env?: NodeJS.ProcessEnv;
}): Promise<ConfiguredCodecServer>;
