/** The benchmark worker's workflows: teamrun's own and the bare baselines, bundled together for one worker. */
export * from '../src/workflows';
export { bareRun, baselineRun } from './baseline-workflow';
export { bareAgentRun } from './bare-agent-workflow';
