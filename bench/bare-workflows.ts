/**
 * The truly bare baseline's workflows file: only the bare fan-out, bundled on its own
 * (bench/env.ts, `bareBundlePath`), so the bare worker evaluates none of teamrun's code (no zod,
 * no plan schemas) for its workflow runs.
 */
export { bareRun } from './baseline-workflow';
