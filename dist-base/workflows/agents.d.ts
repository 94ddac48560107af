import type { SteerTaskRequest, SteerTaskVerdict } from '../contract';
import type { TeamRun } from '../team/run';
/** Sent by an agent attempt's worker, batched (src/activities/step-reporter.ts). */
export declare const agentStepsSignal: import("@temporalio/workflow").SignalDefinition<[{
    key: string;
    fencingToken: number;
    steps: ({
        type: "agent:turn";
        turn: number;
        inputTokens: number;
        outputTokens: number;
        tools: string[];
    } | {
        type: "agent:tool";
        turn: number;
        tool: string;
        ms: number;
        ok: boolean;
    })[];
}], string>;
/** The `steerTask` rule: the run's checks in the validator, then the journal's answer. */
export declare function steerRule(run: TeamRun, now: () => number): {
    validate: (request: SteerTaskRequest) => undefined;
    apply: (payload: SteerTaskRequest) => Promise<SteerTaskVerdict>;
};
