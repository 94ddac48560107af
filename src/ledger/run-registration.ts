/**
 * A run's registration with its shared ledger, and its first block with it (issue 42): a run on blocks launches its
 * first attempts before it registers, and their block is asked in the registration's own update, so they wait for one
 * ledger call (an activity and a workflow task of the run) instead of two. Workflow code.
 */
import { CancellationScope, proxyActivities } from '@temporalio/workflow';
import type { LedgerActivities } from './activity-interface';
import type { AcquireRequest } from '../plan/requests/ledger';
import type { RunBlocks } from './blocks';
import { controlQueue } from '../workflows/stop-channel';

/** Registration outlives a ledger that is briefly unreachable; a run does not start without it. */
export const registration = (): LedgerActivities =>
  proxyActivities<LedgerActivities>({
    ...controlQueue(),
    startToCloseTimeout: '30s',
    heartbeatTimeout: '10s',
    retry: { initialInterval: '1s', maximumInterval: '10s' },
  });

type Registration = Parameters<LedgerActivities['ledgerRegister']>[0];
type Answer = Awaited<ReturnType<LedgerActivities['ledgerRegister']>>;

/**
 * Sends the registration: with the block of the attempts that wait for one when `blocks` is about to ask for it (the
 * ask, later in this activation, sends it so: RunBlocks.withNextAsk), else at once. Not cancellable: the run does not
 * start without it. Answers the registration's answer.
 */
export function sendRegistration(
  activities: LedgerActivities,
  request: Registration,
  blocks: RunBlocks | null,
): Promise<Answer> {
  let sent = (_answer: Promise<Answer>) => {};
  const registered = new Promise<Answer>((resolve, reject) => (sent = (answer) => void answer.then(resolve, reject)));
  const send = (block?: AcquireRequest) => {
    const answer = CancellationScope.nonCancellable(() =>
      activities.ledgerRegister(block ? { ...request, block } : request),
    );
    sent(answer);
    return answer;
  };
  const carried = blocks?.withNextAsk((block) => send(block).then((answer) => answer.block ?? null));
  if (!carried) void send();
  return registered;
}
