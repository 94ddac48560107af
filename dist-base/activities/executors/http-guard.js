"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HostPolicy = exports.HostRefused = void 0;
const node_dns_1 = require("node:dns");
const node_net_1 = require("node:net");
const errors_1 = require("../../errors");
/** Addresses a plan may not reach unless the worker's operator allows them: loopback, private, link-local and kin. */
const SPECIAL = new node_net_1.BlockList();
for (const [net, prefix, family] of [
    ['0.0.0.0', 8, 'ipv4'], // "this network"
    ['10.0.0.0', 8, 'ipv4'], // private
    ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
    ['127.0.0.0', 8, 'ipv4'], // loopback
    ['169.254.0.0', 16, 'ipv4'], // link-local (cloud metadata services live here)
    ['172.16.0.0', 12, 'ipv4'], // private
    ['192.168.0.0', 16, 'ipv4'], // private
    ['224.0.0.0', 4, 'ipv4'], // multicast
    ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
    ['::', 128, 'ipv6'], // unspecified
    ['::1', 128, 'ipv6'], // loopback
    ['fc00::', 7, 'ipv6'], // unique local (private)
    ['fe80::', 10, 'ipv6'], // link-local
    ['ff00::', 8, 'ipv6'], // multicast
]) {
    SPECIAL.addSubnet(net, prefix, family);
}
/** Whether `ip` is in a denied range; an address it cannot read (a zone id, say) counts as denied. */
function special(ip, family) {
    try {
        return SPECIAL.check(ip, family);
    }
    catch {
        return true;
    }
}
/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is checked as the IPv4 address it is. */
function normalise(ip) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped)
        return { ip: mapped[1], family: 'ipv4' };
    return { ip, family: (0, node_net_1.isIP)(ip) === 6 ? 'ipv6' : 'ipv4' };
}
class HostRefused extends errors_1.TeamrunError {
    code = 'TEAMRUN_HOST_REFUSED';
}
exports.HostRefused = HostRefused;
/**
 * `worker.http.allowHosts` and `allowPublic`, applied to the address a request actually connects
 * to (checked in the DNS lookup of the connection itself, so a name cannot resolve one way for
 * the check and another for the connection).
 */
class HostPolicy {
    config;
    entries;
    constructor(config) {
        this.config = config;
        this.entries = config.allowHosts.map(parseEntry);
    }
    /** Why `ip` (what `hostname`:`port` resolved to) may not be reached, or null when it may. */
    refusal(hostname, port, address) {
        const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
        const { ip, family } = normalise(address);
        for (const e of this.entries) {
            if (e.port !== undefined && e.port !== port)
                continue;
            if (e.host !== undefined && e.host === host)
                return null;
            if (e.suffix !== undefined && host.endsWith(e.suffix))
                return null;
            if (e.net && netHas(e.net, ip, family))
                return null;
        }
        const where = host === ip ? `${host}:${port}` : `${host}:${port} (${ip})`;
        if (special(ip, family)) {
            return (`${where} is a loopback, private or link-local address, which tasks may not reach unless the ` +
                `worker allows it: add "${host}" (or "${host}:${port}", or a CIDR) to worker.http.allowHosts`);
        }
        if (!this.config.allowPublic) {
            return (`${where} is not in worker.http.allowHosts, and worker.http.allowPublic ` +
                `is false: add "${host}" to worker.http.allowHosts`);
        }
        return null;
    }
    /** A `lookup` for http.request that resolves, then refuses the request unless an address is allowed. */
    lookupFor(port) {
        const lookup = (hostname, options, callback) => {
            const opts = (typeof options === 'object' && options !== null ? options : {});
            const cb = (typeof options === 'function' ? options : callback);
            (0, node_dns_1.lookup)(hostname, { all: true, family: opts.family ?? 0 }, (err, addresses) => {
                if (err)
                    return cb(err);
                if (addresses.length === 0)
                    return cb(new Error(`${hostname}: no address`));
                const allowed = addresses.filter((a) => this.refusal(hostname, port, a.address) === null);
                if (allowed.length === 0)
                    return cb(new HostRefused(this.refusal(hostname, port, addresses[0].address) ?? `${hostname}: refused`));
                if (opts.all)
                    cb(null, allowed);
                else
                    cb(null, allowed[0].address, allowed[0].family);
            });
        };
        return lookup;
    }
}
exports.HostPolicy = HostPolicy;
function netHas(net, ip, family) {
    try {
        return net.check(ip, family);
    }
    catch {
        return false;
    }
}
function parseEntry(raw) {
    const text = raw.trim().toLowerCase();
    const cidr = /^([0-9a-f:.]+)\/(\d{1,3})$/.exec(text);
    if (cidr && (0, node_net_1.isIP)(cidr[1])) {
        const net = new node_net_1.BlockList();
        const { ip, family } = normalise(cidr[1]);
        net.addSubnet(ip, Number(cidr[2]), family);
        return { net };
    }
    // host, host:port, [v6], [v6]:port, v4, v4:port, *.suffix
    const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(text);
    const withPort = /^([^:]+):(\d+)$/.exec(text);
    const host = bracketed?.[1] ?? withPort?.[1] ?? text;
    const port = bracketed?.[2] ?? withPort?.[2];
    const entry = port ? { port: Number(port) } : {};
    if ((0, node_net_1.isIP)(host)) {
        const net = new node_net_1.BlockList();
        const { ip, family } = normalise(host);
        net.addAddress(ip, family);
        return { ...entry, net };
    }
    if (host.startsWith('*.'))
        return { ...entry, suffix: host.slice(1) };
    return { ...entry, host };
}
