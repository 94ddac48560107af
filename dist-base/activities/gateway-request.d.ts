/** Longer than the gateway waits for its run (60 s), so the gateway's own answer comes first. */
export declare const GATEWAY_TIMEOUT_MS = 75000;
/** Resolves with the gateway's answer as text; rejects when it cannot be reached or does not answer in time. */
export declare function postToGateway(gateway: {
    socket: string;
    secret: string;
}, path: string, body: object, signal?: AbortSignal): Promise<string>;
