"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.loggedPath = loggedPath;
exports.readToken = readToken;
exports.startCodecServer = startCodecServer;
exports.startConfiguredCodecServer = startConfiguredCodecServer;
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_http_1 = __importDefault(require("node:http"));
const node_path_1 = __importDefault(require("node:path"));
const errors_1 = require("../errors");
const errors_2 = require("./errors");
const index_1 = require("./index");
/** A history's decode batch can hold several payloads near Temporal's 2 MB limit, base64-grown. */
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
const MIN_TOKEN_LENGTH = 16;
/**
 * `/encode`, `/decode`, or the same under `/t/<token>/` (the Web UI's codec endpoint can carry no
 * header). A trailing slash, and the doubled one a UI endpoint configured with a trailing slash
 * produces (`/t/<token>//decode`), are the same route.
 */
const ROUTE = /^(?:\/t\/([^/]+))?\/+(encode|decode)\/?$/;
/** A logged path is cut here: the log line stays one short line whatever a client sends. */
const MAX_LOGGED_PATH = 200;
/**
 * The path as the log may show it: never the token, whatever the route. The segment after `/t/`
 * is hidden even when it is not the token (a mistyped token is close to the real one), and the
 * token is hidden wherever else it appears, as written or percent-encoded.
 */
function loggedPath(pathname, token) {
    let shown = pathname.replace(/^\/t\/[^/]*/, '/t/***');
    for (const form of new Set([token, encodeURIComponent(token)]))
        shown = shown.split(form).join('***');
    return shown.length > MAX_LOGGED_PATH ? `${shown.slice(0, MAX_LOGGED_PATH)}...` : shown;
}
/** The token named by `codec.server.tokenEnv` / `tokenFile` (relative to the config file's directory). */
function readToken(server, baseDir, env = process.env) {
    let token;
    let where;
    if (server.tokenFile !== undefined) {
        const file = node_path_1.default.resolve(baseDir, server.tokenFile);
        where = `codec.server.tokenFile ${file}`;
        try {
            token = (0, node_fs_1.readFileSync)(file, 'utf8').trim();
        }
        catch (err) {
            throw new errors_2.CodecError('codec-token-unreadable', `${where}: cannot read it: ${err.message}`);
        }
    }
    else {
        where = `codec.server.tokenEnv $${server.tokenEnv}`;
        token = Object.hasOwn(env, server.tokenEnv) ? env[server.tokenEnv]?.trim() : undefined;
    }
    if (!token)
        throw new errors_2.CodecError('codec-token-unreadable', `${where}: no token there`);
    if (token.length < MIN_TOKEN_LENGTH || /\s|\//.test(token)) {
        throw new errors_2.CodecError('codec-token-unreadable', `${where}: a token is at least ${MIN_TOKEN_LENGTH} characters, ` +
            `without spaces or "/" (e.g. \`openssl rand -hex 24\`)`);
    }
    return token;
}
const digest = (value) => (0, node_crypto_1.createHash)('sha256').update(value).digest();
const sameSecret = (given, expected) => (0, node_crypto_1.timingSafeEqual)(digest(given), expected);
function fromJson(payload, index) {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
        throw new BadRequest(`payloads[${index}] is not an object`);
    const metadata = {};
    for (const [key, value] of Object.entries(payload.metadata ?? {})) {
        if (typeof value !== 'string')
            throw new BadRequest(`payloads[${index}].metadata.${key} is not a base64 string`);
        metadata[key] = Buffer.from(value, 'base64');
    }
    if (payload.data !== undefined && typeof payload.data !== 'string')
        throw new BadRequest(`payloads[${index}].data is not a base64 string`);
    return { metadata, data: Buffer.from(payload.data ?? '', 'base64') };
}
function toJson(payload) {
    const metadata = {};
    for (const [key, value] of Object.entries(payload.metadata ?? {}))
        metadata[key] = Buffer.from(value ?? new Uint8Array()).toString('base64');
    return { metadata, data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64') };
}
class BadRequest extends errors_1.TeamrunError {
    code = 'bad-request';
}
/**
 * Temporal's codec server protocol (what the Web UI and `temporal --codec-endpoint` call):
 * `POST /encode` and `POST /decode` with `{ "payloads": [...] }` in and out, the namespace in
 * `X-Namespace`. Every request needs the token; browsers get CORS only for the listed origins.
 */
function startCodecServer(options) {
    const expected = digest(options.token);
    const origins = new Set(options.corsOrigins);
    const namespaces = new Set(options.namespaces);
    const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const log = options.log ?? (() => undefined);
    const server = node_http_1.default.createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://codec');
        const route = ROUTE.exec(url.pathname);
        const shownPath = loggedPath(url.pathname, options.token);
        const namespace = req.headers['x-namespace'];
        const origin = req.headers.origin;
        const send = (status, body) => {
            if (origin && origins.has(origin)) {
                res.setHeader('Access-Control-Allow-Origin', origin);
                res.setHeader('Access-Control-Allow-Credentials', 'true');
            }
            res.setHeader('Vary', 'Origin');
            if (body === undefined)
                res.writeHead(status).end();
            else
                res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
            const shownNamespace = typeof namespace === 'string' ? ` namespace=${namespace.slice(0, 100)}` : '';
            log(`${req.method} ${shownPath} ${status}${shownNamespace}`);
        };
        const refuse = (status, code, message) => send(status, { code, message });
        if (origin !== undefined && !origins.has(origin)) {
            return refuse(403, 'origin-not-allowed', `origin ${origin} is not in codec.server.corsOrigins`);
        }
        if (req.method === 'OPTIONS') {
            res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
            res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
            res.setHeader('Access-Control-Max-Age', '600');
            return send(204);
        }
        if (!route)
            return refuse(404, 'not-found', 'the codec server answers POST /encode and POST /decode');
        if (req.method !== 'POST')
            return refuse(405, 'method-not-allowed', 'use POST');
        const header = req.headers.authorization;
        const given = route[1] ?? (header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined);
        if (given === undefined || !sameSecret(given, expected)) {
            return refuse(401, 'unauthorized', 'a valid token is required (Authorization: Bearer <token>)');
        }
        if (typeof namespace === 'string' && !namespaces.has(namespace)) {
            return refuse(403, 'namespace-not-allowed', `namespace ${namespace} is not one this codec server decodes for`);
        }
        const chunks = [];
        let size = 0;
        let tooLarge = false;
        req.on('data', (chunk) => {
            size += chunk.length;
            if (size > maxBody)
                tooLarge = true;
            else
                chunks.push(chunk);
        });
        req.on('end', () => {
            if (tooLarge)
                return refuse(413, 'body-too-large', `a request body is at most ${maxBody} bytes`);
            void respond(route[2], Buffer.concat(chunks)).then((body) => send(200, body), (err) => {
                if (err instanceof BadRequest)
                    return refuse(400, err.code, err.message);
                if (err instanceof errors_2.CodecError)
                    return refuse(422, err.code, err.message);
                return refuse(500, 'internal', 'the codec failed');
            });
        });
    });
    async function respond(operation, raw) {
        let body;
        try {
            body = JSON.parse(raw.toString('utf8'));
        }
        catch {
            throw new BadRequest('the body is not JSON');
        }
        const list = body?.payloads;
        if (!Array.isArray(list))
            throw new BadRequest('the body has no "payloads" array');
        const payloads = list.map((p, i) => fromJson(p, i));
        const result = operation === 'encode' ? await options.codec.encode(payloads) : await options.codec.decode(payloads);
        return { payloads: result.map(toJson) };
    }
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, () => {
            const { port } = server.address();
            const host = options.host.includes(':') ? `[${options.host}]` : options.host;
            resolve({
                url: `http://${host}:${port}`,
                close: () => new Promise((done) => {
                    server.close(() => done());
                    server.closeAllConnections();
                }),
            });
        });
    });
}
/**
 * Starts the codec server `codec.server` describes, with the config's keys and token.
 * `extraOrigins` adds UI origins the caller knows of (the embedded Web UI of `teamrun dev`).
 */
async function startConfiguredCodecServer(config, options = {}) {
    const server = config.codec?.server;
    if (!config.codec || !server) {
        throw new errors_2.CodecError('codec-server-not-configured', 'the codec server needs `codec:` with `codec.server:` (tokenEnv ' +
            'or tokenFile, corsOrigins) in teamrun.yaml; see docs/security.md');
    }
    const base = config.file ? node_path_1.default.dirname(config.file) : process.cwd();
    const codec = (0, index_1.codecFor)(config, options.env);
    const token = readToken(server, base, options.env);
    const namespaces = server.namespaces ?? [config.connection.namespace];
    const corsOrigins = [...new Set([...server.corsOrigins, ...(options.extraOrigins ?? [])])];
    const running = await startCodecServer({
        codec,
        token,
        corsOrigins,
        namespaces,
        host: options.host ?? server.host,
        port: options.port ?? server.port,
        log: options.log,
    });
    return { ...running, uiEndpoint: `${running.url}/t/${token}`, namespaces, corsOrigins };
}
