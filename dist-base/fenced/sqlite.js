"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sqliteDriver = sqliteDriver;
exports.isSqliteError = isSqliteError;
const errors_1 = require("./errors");
let driver;
/**
 * better-sqlite3, loaded on the first store opened: it is an optional peer dependency, because it
 * compiles SQLite at install where no prebuilt binary can be fetched and only teamrun/fenced uses
 * it (Node 20 has no `node:sqlite`). Loading teamrun, its worker or its CLI never needs it.
 */
function sqliteDriver() {
    if (driver)
        return driver;
    try {
        driver = require('better-sqlite3');
    }
    catch (err) {
        // Only the package itself missing; a broken install (its native binding, its own imports) says so itself.
        const missing = err.code === 'MODULE_NOT_FOUND' && /'better-sqlite3'/.test(String(err));
        throw missing ? new errors_1.FencedStoreDriverMissing() : err;
    }
    return driver;
}
/** Whether `err` is SQLite refusing the file (not a database, locked, read-only): the caller's error, not a bug. */
function isSqliteError(err) {
    return driver !== undefined && err instanceof driver.SqliteError;
}
