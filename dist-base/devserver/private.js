"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ensurePrivateDir = ensurePrivateDir;
exports.ensurePrivateFile = ensurePrivateFile;
exports.restrictDatabase = restrictDatabase;
exports.withPrivateUmask = withPrivateUmask;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
/**
 * `.teamrun/` holds the dev server's database (every run's history, inputs and outputs) and its
 * log: readable by its owner only. Directories teamrun creates are 0700; a `.teamrun` that
 * exists already is tightened to 0700 too (a directory it did not create is left as it is).
 */
function ensurePrivateDir(dir) {
    (0, node_fs_1.mkdirSync)(dir, { recursive: true, mode: 0o700 });
    if (node_path_1.default.basename(dir) === '.teamrun')
        (0, node_fs_1.chmodSync)(dir, 0o700);
    const parent = node_path_1.default.dirname(dir);
    if (node_path_1.default.basename(parent) === '.teamrun')
        (0, node_fs_1.chmodSync)(parent, 0o700);
}
/** Creates a log file 0600, or makes an existing one 0600. */
function ensurePrivateFile(file) {
    if (!(0, node_fs_1.existsSync)(file))
        (0, node_fs_1.closeSync)((0, node_fs_1.openSync)(file, 'a', 0o600));
    (0, node_fs_1.chmodSync)(file, 0o600);
}
/** Makes a SQLite database and the files beside it (-wal, -shm, -journal) 0600 where they exist. */
function restrictDatabase(dbFile) {
    for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`]) {
        if ((0, node_fs_1.existsSync)(file))
            (0, node_fs_1.chmodSync)(file, 0o600);
    }
}
/** Runs `start` (which spawns a process) under umask 077, so whatever that process creates is its owner's only. */
function withPrivateUmask(start) {
    const previous = process.umask(0o077);
    try {
        return start();
    }
    finally {
        process.umask(previous);
    }
}
