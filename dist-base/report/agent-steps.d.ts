import type { AgentStepRecord } from './model';
/** Steps the report keeps; a 200-turn agent with tools fits many times over, a flood does not. */
export declare const REPORT_STEPS_MAX = 5000;
/** The steps of one `agentSteps` signal received at `at`, or [] for a payload that is not one. */
export declare function agentStepsOf(payload: unknown, at: number): AgentStepRecord[];
