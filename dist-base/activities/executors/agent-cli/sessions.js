"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionStore = void 0;
exports.isSessionId = isSessionId;
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
/**
 * A CLI's session id, as an argument of `--resume`: what the CLIs print (UUIDs), never an option,
 * and bounded. Anything else from the stream is not taken.
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;
function isSessionId(value) {
    return SESSION_ID.test(value);
}
/**
 * The last session of a task's CLI on this worker, so that its next attempt (a retry, an
 * adjudicated retry) resumes it. Kept on the worker because the CLIs keep their sessions on the
 * machine they ran on (~/.claude, ~/.codex, ~/.gemini); the id is also in the attempt's output
 * and failure evidence, so a human deciding an adjudication sees it. Removed when the task succeeds.
 */
class SessionStore {
    file;
    constructor(identity, cli, dir = defaultDir()) {
        const name = (0, node_crypto_1.createHash)('sha256').update(`${identity.workflowId}\0${identity.taskKey}\0${cli}`).digest('hex');
        this.file = node_path_1.default.join(dir, `${name.slice(0, 40)}.json`);
    }
    load() {
        try {
            const saved = JSON.parse((0, node_fs_1.readFileSync)(this.file, 'utf8').slice(0, 8_192));
            if (typeof saved.sessionId !== 'string' || !isSessionId(saved.sessionId))
                return undefined;
            return { sessionId: saved.sessionId, cwd: typeof saved.cwd === 'string' ? saved.cwd : null };
        }
        catch {
            return undefined;
        }
    }
    save(sessionId, cwd) {
        try {
            (0, node_fs_1.mkdirSync)(node_path_1.default.dirname(this.file), { recursive: true, mode: 0o700 });
            (0, node_fs_1.writeFileSync)(this.file, JSON.stringify({ sessionId, cwd: cwd ?? null }), { mode: 0o600 });
        }
        catch {
            // Only a later resume is lost: the id is in the attempt's output all the same.
        }
    }
    remove() {
        (0, node_fs_1.rmSync)(this.file, { force: true });
    }
}
exports.SessionStore = SessionStore;
function defaultDir() {
    return node_path_1.default.join(node_os_1.default.tmpdir(), `teamrun-agent-sessions-${node_os_1.default.userInfo().uid}`);
}
