"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.onePromptOrMessages = exports.ChatMessageSchema = exports.durationMs = exports.MAX_TIMEOUT_MS = void 0;
/** Field schemas more than one executor kind's schema uses. Imports nothing from the plan's schema. */
const zod_1 = require("zod");
/** Temporal's timers and timeouts hold at most this many milliseconds (a signed 32-bit integer). */
exports.MAX_TIMEOUT_MS = 2 ** 31 - 1;
exports.durationMs = zod_1.z
    .number()
    .int()
    .nonnegative()
    .max(exports.MAX_TIMEOUT_MS, `at most ${exports.MAX_TIMEOUT_MS} ms (2^31-1, about 24.8 days): timers fire at once past it`);
exports.ChatMessageSchema = zod_1.z
    .object({ role: zod_1.z.enum(['system', 'user', 'assistant']), content: zod_1.z.string() })
    .strict();
exports.onePromptOrMessages = [
    (e) => (e.prompt === undefined) !== (e.messages === undefined),
    { message: 'give exactly one of "prompt" or "messages"' },
];
