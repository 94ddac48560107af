"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.AttemptGateway = exports.GATEWAY_LIMITS = void 0;
/**
 * The worker's attempt gateway: how a task speaks to its run as its attempt. Each attempt this
 * worker runs gets a secret (`TEAMRUN_ATTEMPT_SECRET`) that only its processes hold; `teamrun send`,
 * `inbox` and `add-tasks` inside the task hand their request to this gateway over a Unix socket in
 * a directory only the worker's user can enter. The gateway fills in the attempt's identity,
 * redacts the request, and sends it with the worker's own client (its codec applies) along with a
 * one-time nonce; the run asks this worker, on its stop queue, to confirm the nonce before it takes
 * the request as the task's. The task never holds the codec key or a Temporal credential.
 */
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_http_1 = __importDefault(require("node:http"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const client_1 = require("@temporalio/client");
const common_1 = require("@temporalio/common");
const messages_1 = require("../agent/messages");
const types_1 = require("../agent/types");
const update_retry_1 = require("../sdk/update-retry");
const gateway_reserve_1 = require("./gateway-reserve");
const redact_1 = require("./redact");
exports.GATEWAY_LIMITS = {
    /** A request's JSON body (an addTasks request's tasks are at most MAX_SPAWN_BYTES of it). */
    requestBytes: 1024 * 1024,
    /** How long a nonce waits for its run to ask about it. */
    nonceTtlMs: 60_000,
    /** Nonces held at once; past it the oldest is forgotten (its run is then told no). */
    nonces: 4096,
    /** How long the gateway waits for the run's verdict. */
    updateTimeoutMs: 60_000,
};
/** What a task may send its run as itself; an extension goes through its live reservation (`/reserve`) instead. */
const MESSAGES = new Set(['sendMessage', 'readInbox', 'addTasks']);
const RESERVE = 'reserve';
class AttemptGateway {
    options;
    dir;
    socket;
    binDir;
    server;
    attempts = new Map();
    nonces = new Map();
    /** Every attempt gets a secret, noop ones too: drawn from a pool, not one system call each. */
    secrets = new RandomPool(32);
    constructor(options, dir, socket, 
    /** Holds the `teamrun` launcher of this worker's own CLI; null when the CLI is not beside the code. */
    binDir, server) {
        this.options = options;
        this.dir = dir;
        this.socket = socket;
        this.binDir = binDir;
        this.server = server;
    }
    /** Listens in a new private directory under the system's temporary directory. */
    static async start(options) {
        const dir = (0, node_fs_1.mkdtempSync)(node_path_1.default.join(node_os_1.default.tmpdir(), 'teamrun-gw-'));
        (0, node_fs_1.chmodSync)(dir, 0o700);
        const socket = node_path_1.default.join(dir, 'gateway.sock');
        const server = node_http_1.default.createServer();
        const gateway = new AttemptGateway(options, dir, socket, writeLauncher(dir), server);
        server.on('request', (req, res) => void gateway.serve(req, res));
        try {
            await new Promise((resolve, reject) => {
                server.once('error', reject);
                server.listen(socket, resolve);
            });
        }
        catch (err) {
            (0, node_fs_1.rmSync)(dir, { recursive: true, force: true });
            throw err;
        }
        return gateway;
    }
    /**
     * Registers an attempt as it starts: its secret, and its redactor (the worker's secrets and
     * this one). `close` drops it when the attempt ends; its secret then opens nothing.
     */
    open(identity, options = {}) {
        const secret = this.secrets.next().toString('base64url');
        const id = digest(secret);
        const redactor = new redact_1.Redactor([...this.options.secrets, { name: 'TEAMRUN_ATTEMPT_SECRET', value: secret }]);
        const attempt = { identity, redactor, ...options };
        this.attempts.set(id, attempt);
        return {
            access: { socket: this.socket, secret, binDir: this.binDir },
            redactor,
            close: () => void this.attempts.delete(id),
            attachBudget: (budget) => void (attempt.budget = budget),
            extend: async (extension) => {
                try {
                    const answer = await this.forward(id, attempt, 'extendReservation', extension);
                    return { ok: true, granted: answer.granted };
                }
                catch (err) {
                    const refusal = refusalOf(err, 'extendReservation');
                    return { ok: false, code: refusal.code, message: redactor.text(refusal.message) };
                }
            },
        };
    }
    /** The run's question: did this gateway send that request, for an attempt still running? Once per nonce. */
    confirm(request) {
        const pending = typeof request.nonce === 'string' ? this.nonces.get(request.nonce) : undefined;
        if (!pending)
            return false;
        this.nonces.delete(request.nonce);
        return (pending.expires > Date.now() &&
            this.attempts.has(pending.attempt) &&
            pending.workflowId === request.workflowId &&
            pending.key === request.key &&
            pending.fencingToken === request.fencingToken &&
            pending.message === request.message);
    }
    async close() {
        this.attempts.clear();
        this.nonces.clear();
        const closed = new Promise((resolve) => this.server.close(() => resolve()));
        this.server.closeAllConnections();
        await closed;
        (0, node_fs_1.rmSync)(this.dir, { recursive: true, force: true });
    }
    async serve(req, res) {
        const reply = (status, answer) => {
            res.writeHead(status, { 'content-type': 'application/json' });
            res.end(JSON.stringify(answer));
        };
        const refuse = (status, code, message) => {
            req.resume();
            reply(status, { ok: false, code, message });
        };
        const message = (req.url ?? '').slice(1);
        if (req.method !== 'POST' || !(MESSAGES.has(message) || message === RESERVE || message === 'journal'))
            return refuse(404, 'TEAM_ATTEMPT_GATEWAY_NOT_FOUND', 'the gateway takes POST /sendMessage, /readInbox, /addTasks, /reserve, /journal');
        const bearer = /^Bearer ([A-Za-z0-9_-]{1,100})$/.exec(req.headers.authorization ?? '')?.[1];
        const id = bearer === undefined ? undefined : digest(bearer);
        const attempt = id === undefined ? undefined : this.attempts.get(id);
        if (!attempt || id === undefined) {
            return refuse(401, 'TEAM_ATTEMPT_UNKNOWN', 'no attempt running on this worker holds this secret (the attempt ended, or TEAMRUN_ATTEMPT_SECRET is wrong)');
        }
        let body;
        try {
            body = JSON.parse(await readBounded(req, exports.GATEWAY_LIMITS.requestBytes));
        }
        catch (err) {
            const tooLarge = err instanceof RangeError;
            return refuse(tooLarge ? 413 : 400, tooLarge ? 'TEAM_ATTEMPT_REQUEST_TOO_LARGE' : 'TEAM_ATTEMPT_REQUEST_INVALID', tooLarge ? `the request is over ${exports.GATEWAY_LIMITS.requestBytes} bytes` : 'the request is not JSON');
        }
        if (typeof body !== 'object' || body === null || Array.isArray(body))
            return refuse(400, 'TEAM_ATTEMPT_REQUEST_INVALID', 'the request is not a JSON object');
        if (message === RESERVE)
            return reply(...(await (0, gateway_reserve_1.reserve)(attempt, body)));
        try {
            const answer = message === 'journal'
                ? await this.journal(attempt, body)
                : await this.forward(id, attempt, message, body);
            reply(200, { ok: true, answer });
        }
        catch (err) {
            const refusal = refusalOf(err, message);
            reply(refusal.status, { ok: false, code: refusal.code, message: attempt.redactor.text(refusal.message) });
        }
    }
    /** The task's request, sent as its attempt: identity filled in here, redacted, with a nonce to confirm. */
    async forward(id, { identity, redactor }, message, body) {
        const nonce = (0, node_crypto_1.randomBytes)(24).toString('base64url');
        this.remember(nonce, {
            attempt: id,
            workflowId: identity.workflowId,
            key: identity.taskKey,
            fencingToken: identity.fencingToken,
            message,
            expires: Date.now() + exports.GATEWAY_LIMITS.nonceTtlMs,
        });
        const request = {
            ...redactor.deep(asTask(message, identity, body)),
            attempt: { queue: this.options.queue, nonce },
        };
        const { client } = this.options;
        try {
            // The retries of an update refused at a handover share the one deadline.
            return await client.withDeadline(Date.now() + exports.GATEWAY_LIMITS.updateTimeoutMs, () => (0, update_retry_1.retryUpdate)((updateId) => client.workflow.getHandle(identity.workflowId).executeUpdate(message, { args: [request], updateId })));
        }
        finally {
            this.nonces.delete(nonce);
        }
    }
    /**
     * An agent attempt's step in its task's journal, with the attempt's own fencing token: the
     * journal refuses a token lower than one it has seen. The first step of the task starts it.
     */
    async journal({ identity, redactor, journalQueue }, body) {
        if (!journalQueue)
            throw new JournalUnavailable('only an agent attempt has a journal');
        const { client } = this.options;
        const workflowId = (0, types_1.journalId)(identity.workflowId, identity.taskKey);
        const request = { ...redactor.deep(body), fencingToken: identity.fencingToken };
        if (request.op === 'open') {
            const start = {
                runWorkflowId: identity.workflowId,
                key: identity.taskKey,
                fencingToken: identity.fencingToken,
                entries: [],
                turnOpen: 0,
                pending: [],
            };
            await client.workflow.start(types_1.JOURNAL_WORKFLOW_TYPE, {
                workflowId,
                taskQueue: journalQueue,
                args: [start],
                workflowIdConflictPolicy: 'USE_EXISTING',
            });
        }
        return client.withDeadline(Date.now() + exports.GATEWAY_LIMITS.updateTimeoutMs, () => (0, update_retry_1.retryUpdate)((updateId) => client.workflow.getHandle(workflowId).executeUpdate(messages_1.journalUpdate, { args: [request], updateId })));
    }
    remember(nonce, pending) {
        const now = Date.now();
        for (const [key, old] of this.nonces) {
            if (old.expires > now && this.nonces.size < exports.GATEWAY_LIMITS.nonces)
                break;
            this.nonces.delete(key);
        }
        this.nonces.set(nonce, pending);
    }
}
exports.AttemptGateway = AttemptGateway;
/** The request as the task's attempt sends it: who it is comes from the gateway, never from the task. */
function asTask(message, id, body) {
    const given = (fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    const { taskKey: key, fencingToken } = id;
    switch (message) {
        case 'sendMessage':
            return given({ from: key, fencingToken, to: body.to, subject: body.subject, body: body.body });
        case 'readInbox':
            return given({ key, fencingToken, peek: body.peek });
        case 'addTasks':
            return given({
                tasks: body.tasks,
                parent: key,
                fencingToken,
                requestId: body.requestId ?? `${key}#${fencingToken}`,
            });
        case 'extendReservation':
            return given({ key, fencingToken, tokens: body.tokens, usd: body.usd });
    }
}
class JournalUnavailable extends Error {
}
function refusalOf(err, message) {
    if (err instanceof JournalUnavailable)
        return { status: 403, code: 'TEAM_ATTEMPT_NO_JOURNAL', message: err.message };
    if (err instanceof client_1.WorkflowUpdateFailedError && err.cause instanceof common_1.ApplicationFailure) {
        const code = err.cause.type ?? 'rejected';
        const text = err.cause.message.startsWith(`${code}: `)
            ? err.cause.message.slice(code.length + 2)
            : err.cause.message;
        return { status: 422, code, message: text };
    }
    if (err instanceof client_1.WorkflowNotFoundError)
        return { status: 404, code: 'not_found', message: `${message}: the task's run is not open` };
    return {
        status: 502,
        code: 'TEAM_ATTEMPT_GATEWAY_FAILED',
        message: `${message}: the worker could not reach the run: ${err?.message ?? String(err)}`,
    };
}
function digest(secret) {
    return (0, node_crypto_1.createHash)('sha256').update(secret).digest('hex');
}
/** The body, refused past `limit` bytes (a RangeError) without reading the rest. */
async function readBounded(req, limit) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        size += chunk.length;
        if (size > limit)
            throw new RangeError('too large');
        chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
}
/**
 * A `teamrun` launcher for this worker's own CLI (compiled beside this code, or the sources'
 * bin/teamrun.js in a clone), so a task finds the same teamrun as its worker, whatever is on PATH.
 */
function writeLauncher(dir) {
    const cli = __filename.endsWith('.js')
        ? node_path_1.default.join(__dirname, '..', 'cli', 'main.js')
        : node_path_1.default.join(__dirname, '..', '..', 'bin', 'teamrun.js');
    if (!(0, node_fs_1.existsSync)(cli))
        return null;
    const bin = node_path_1.default.join(dir, 'bin');
    (0, node_fs_1.mkdirSync)(bin, { mode: 0o700 });
    const quote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;
    (0, node_fs_1.writeFileSync)(node_path_1.default.join(bin, 'teamrun'), `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(cli)} "$@"\n`, {
        mode: 0o700,
    });
    return bin;
}
/** Random `size`-byte values, 128 per draw from the system's CSPRNG; each value is handed out once. */
class RandomPool {
    size;
    pool = Buffer.alloc(0);
    at = 0;
    constructor(size) {
        this.size = size;
    }
    next() {
        if (this.at + this.size > this.pool.length) {
            this.pool = (0, node_crypto_1.randomBytes)(this.size * 128);
            this.at = 0;
        }
        this.at += this.size;
        return this.pool.subarray(this.at - this.size, this.at);
    }
}
