"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TASK_STATUSES = void 0;
exports.TASK_STATUSES = [
    'blocked',
    'ready',
    'leased',
    'succeeded',
    'failed',
    'adjudication',
    'skipped',
];
