"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.defineExecutor = defineExecutor;
const validate_1 = require("../../plan/validate");
const types_1 = require("./types");
/**
 * An executor kind typed by its own schema, built in (`ShellSpecSchema` and the rest, in
 * plan/schema.ts) or custom. The schema describes the task's `executor` fields beside `kind`
 * (which names the kind and is not passed on); `run` gets the spec it parsed, at the start of the
 * attempt. A spec it refuses fails the attempt at once, non-retryable (type
 * `TeamExecutorSpecInvalid`), naming every problem and its path.
 *
 * ```ts
 * const deploy = defineExecutor(z.object({ service: z.string() }).strict(), async (spec, ctx) => {
 *   ...
 *   return { output: { deployed: spec.service } };
 * });
 * createWorker({ executors: { deploy } });
 * ```
 */
function defineExecutor(specSchema, run) {
    const executor = async ({ kind, ...fields }, ctx) => {
        const parsed = specSchema.safeParse(fields);
        if (!parsed.success) {
            const problems = parsed.error.issues.map((issue) => `${(0, validate_1.formatPath)(['executor', ...issue.path])}: ${issue.message}`);
            throw new types_1.ExecutorError(`task "${ctx.taskKey}": invalid "${kind}" executor spec: ${problems.join('; ')}`, {
                nonRetryable: true,
                type: 'TeamExecutorSpecInvalid',
            });
        }
        return run(parsed.data, ctx);
    };
    return Object.assign(executor, { specSchema });
}
