import { lookup as dnsLookup } from 'node:dns';
import type { TeamrunConfig } from '../../config/config';
import { TeamrunError } from '../../errors';
type HttpConfig = TeamrunConfig['worker']['http'];
export declare class HostRefused extends TeamrunError {
    readonly code = "TEAMRUN_HOST_REFUSED";
}
/**
 * `worker.http.allowHosts` and `allowPublic`, applied to the address a request actually connects
 * to (checked in the DNS lookup of the connection itself, so a name cannot resolve one way for
 * the check and another for the connection).
 */
export declare class HostPolicy {
    private readonly config;
    private readonly entries;
    constructor(config: Pick<HttpConfig, 'allowHosts' | 'allowPublic'>);
    /** Why `ip` (what `hostname`:`port` resolved to) may not be reached, or null when it may. */
    refusal(hostname: string, port: number, address: string): string | null;
    /** A `lookup` for http.request that resolves, then refuses the request unless an address is allowed. */
    lookupFor(port: number): typeof dnsLookup;
}
export {};
