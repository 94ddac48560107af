import { type Executor, type ExecutorContext, type ExecutorResult } from './types';
/**
 * What `defineExecutor` needs of a schema: zod's `safeParse` (any zod v4 schema, whichever copy of
 * zod the caller has), so the spec's type is inferred from the schema that checks it.
 */
export interface SpecSchema<Spec> {
    safeParse(data: unknown): {
        success: true;
        data: Spec;
    } | {
        success: false;
        error: {
            issues: ReadonlyArray<{
                path: ReadonlyArray<PropertyKey>;
                message: string;
            }>;
        };
    };
}
/** An executor made by `defineExecutor`: still a plain `Executor`, carrying the schema it checks. */
export type DefinedExecutor<Spec> = Executor & {
    readonly specSchema: SpecSchema<Spec>;
};
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
export declare function defineExecutor<Spec>(specSchema: SpecSchema<Spec>, run: (spec: Spec, ctx: ExecutorContext) => Promise<ExecutorResult>): DefinedExecutor<Spec>;
