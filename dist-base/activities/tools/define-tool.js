"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.defineTool = defineTool;
const zod_1 = require("zod");
const validate_1 = require("../../plan/validate");
const content_1 = require("./content");
/**
 * A custom tool for agents, typed by a zod (v4) object schema of its arguments; pass it as
 * `createWorker({ tools: { <name>: tool } })`. The model is shown the schema as JSON Schema (zod's
 * `toJSONSchema`); arguments it refuses go back to the model as a tool error naming each field.
 * `run`'s answer is the result the model reads (a string as is, anything else as JSON), a throw
 * its error. `ctx.fencingToken` is the calling attempt's: fence writes with it (`teamrun/fenced`).
 *
 * ```ts
 * const note = defineTool(z.object({ text: z.string() }), async ({ text }, ctx) => {
 *   await store.write(ctx.fencingToken, 'notes', text);
 *   return 'saved';
 * }, { description: 'Saves a note', idempotent: true });
 * createWorker({ tools: { notes__save: note } });
 * ```
 */
function defineTool(argsSchema, run, options = {}) {
    const parameters = argumentsJsonSchema(argsSchema);
    return {
        ...(options.description !== undefined ? { description: options.description } : {}),
        idempotent: options.idempotent ?? false,
        parameters,
        argsSchema,
        run,
        async invoke(args, ctx) {
            const parsed = argsSchema.safeParse(args ?? {});
            if (!parsed.success) {
                const problems = parsed.error.issues.map((i) => `${(0, validate_1.formatPath)(i.path).replace('(plan)', '(arguments)')}: ${i.message}`);
                return { ok: false, error: (0, content_1.boundedText)(`invalid arguments: ${problems.join('; ')}`) };
            }
            try {
                const answer = await run(parsed.data, ctx);
                return { ok: true, content: answer === undefined ? 'done' : (0, content_1.toolText)(answer) };
            }
            catch (err) {
                return { ok: false, error: (0, content_1.boundedText)(err?.message ?? String(err)) };
            }
        },
    };
}
/** The JSON Schema a model is shown: an object's, as zod describes its input. */
function argumentsJsonSchema(schema) {
    let json;
    try {
        json = zod_1.z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    }
    catch (err) {
        throw new TypeError(`defineTool: the arguments' schema must be a zod (v4) schema: ${err.message}`);
    }
    if (json.type !== 'object') {
        throw new TypeError('defineTool: the arguments must be an object (z.object({ ... })): a model calls a tool with one');
    }
    const { $schema: _dialect, ...parameters } = json;
    return parameters;
}
