"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseAddress = parseAddress;
exports.isLocalHost = isLocalHost;
exports.uiPortFor = uiPortFor;
exports.localWebUi = localWebUi;
exports.workflowUrl = workflowUrl;
exports.runUrl = runUrl;
/** `host:port` (IPv6 in brackets) of a Temporal frontend address; the port defaults to 7233. */
function parseAddress(address) {
    const match = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(address.trim());
    if (!match || !match[1])
        throw new Error(`not a host:port address: "${address}"`);
    return { host: match[1], port: match[2] ? Number(match[2]) : 7233 };
}
function isLocalHost(host) {
    return host === 'localhost' || host === '::1' || host === '0.0.0.0' || host.startsWith('127.');
}
/**
 * The Web UI port that goes with a local frontend port: the configured `devServer.uiPort` for
 * the configured dev server port, otherwise the dev server's own convention (frontend + 1000).
 */
function uiPortFor(config, frontendPort) {
    return frontendPort === config.devServer.port ? config.devServer.uiPort : frontendPort + 1_000;
}
/** The Web UI base URL when the address is a local dev server; null for a remote cluster. */
function localWebUi(config, address = config.connection.address) {
    const { host, port } = parseAddress(address);
    return isLocalHost(host) ? `http://localhost:${uiPortFor(config, port)}` : null;
}
function workflowUrl(webUi, namespace, workflowId) {
    return `${webUi}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
/** The Web UI link of a run, when the configured address is local. */
function runUrl(config, workflowId) {
    const webUi = localWebUi(config);
    return webUi && workflowUrl(webUi, config.connection.namespace, workflowId);
}
