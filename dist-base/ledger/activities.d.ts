import { type Client } from '@temporalio/client';
import { type LedgerActivities } from './activity-interface';
/** The activities a team run uses to talk to its shared ledger workflow, through `client`. */
export declare function createLedgerActivities(deps: {
    client: Client;
}): LedgerActivities;
