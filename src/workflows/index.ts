export { teamRun } from './team-run';
