import { type Client } from '@temporalio/client';
export interface SteerAgentInput {
    workflowId: string;
    key: string;
    text: string;
    actor: string | null;
    fencingToken: number;
}
export interface AgentActivities {
    steerAgent(input: SteerAgentInput): Promise<{
        turn: number;
    }>;
}
export declare function createAgentActivities(deps: {
    client: Client;
}): AgentActivities;
