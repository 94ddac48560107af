import { type SteerRequest } from '../plan/requests/agent';
import type { RunContext } from './context';
/** Records an attempt's steps as events; steps of an attempt the run no longer awaits are dropped. */
export declare function recordSteps(run: RunContext, payload: unknown, now: number): number;
/** The checks of a steer (CONTRACT `steerTask`), in the update's validator: nothing refused reaches history. */
export declare function validateSteer(run: RunContext, payload: unknown): SteerRequest & {
    fencingToken: number;
};
export declare function steered(run: RunContext, request: SteerRequest, fencingToken: number, turn: number, now: number): void;
