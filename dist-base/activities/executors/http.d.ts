/**
 * Calls a URL with the attempt's fencing token and an idempotency key, so the receiving
 * service can refuse a stale writer and deduplicate a retried one. The worker decides where a
 * request may go (`worker.http.allowHosts`, checked on the address connected to, redirects
 * included) and how much of an answer it reads (`worker.http.maxBodyBytes`).
 */
export declare const httpExecutor: import("./define").DefinedExecutor<{
    url: string;
    method?: "DELETE" | "GET" | "PATCH" | "POST" | "PUT" | undefined;
    headers?: Record<string, string> | undefined;
    body?: unknown;
    timeoutMs?: number | undefined;
}>;
