"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.transcriptQuery = exports.steerUpdate = exports.journalUpdate = void 0;
/** The journal workflow's messages, defined once for the workflow, the worker's gateway and the CLI. */
const workflow_1 = require("@temporalio/workflow");
/** An attempt's step (open, append, beginTurn, finish), fenced: a lower token than the journal's is refused. */
exports.journalUpdate = (0, workflow_1.defineUpdate)('journal');
/** A person's guidance for the agent's next model call; answers `{ turn }`. */
exports.steerUpdate = (0, workflow_1.defineUpdate)('steer');
/** The transcript so far (`teamrun logs RUN KEY` prints it). */
exports.transcriptQuery = (0, workflow_1.defineQuery)('transcript');
