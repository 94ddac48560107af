"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TeamrunError = void 0;
/**
 * The one base of every error teamrun throws on purpose. Its `code` is stable (tests, scripts and
 * clients match on it) and its message is written for whoever must act on it; anything that is not
 * a `TeamrunError` is a bug. Workflow code imports this file: it uses no Node built-in.
 *
 * The base sets no `name`: a subclass keeps the one it always had, because an error's name becomes
 * the failure type Temporal records when it leaves an activity or a workflow unwrapped.
 */
class TeamrunError extends Error {
}
exports.TeamrunError = TeamrunError;
