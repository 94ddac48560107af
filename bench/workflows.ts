/** The benchmark worker's workflows: teamrun's own and the bare baseline, bundled together for one worker. */
export * from '../src/workflows';
export { bareRun, baselineRun } from './baseline-workflow';
