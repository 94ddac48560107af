/**
 * A worker's first update to each ledger, sent alone (issue 42): the ledger confirms the worker's signing key with it
 * by a round trip, and takes the worker's later updates on their signature (src/ledger/signed-doors.ts).
 */
/** Ledgers this worker remembers having introduced itself to (the oldest forgotten first). */
const INTRODUCED_AT_MOST = 1_024;
/** How long an update waits for this worker's introduction to its ledger before it goes anyway. */
export const INTRODUCTION_WAIT_MS = 10_000;

/**
 * A ledger confirms this worker's key with its first update and refuses the worker's others `busy` meanwhile (each
 * then sent again after 150-600 ms: 10 runs registering at once waited 380-616 ms, bench section 12). So this
 * worker's first update to a ledger goes alone; the others wait for its answer (at most INTRODUCTION_WAIT_MS), then
 * go, and are taken on their signature. After an introduction that failed, the next update introduces. A ledger that
 * forgot the key (it remembers 256 worker queues) answers `busy` again, and those are sent again as before.
 */
export class Introductions {
  private readonly known = new Set<string>();
  private readonly introducing = new Map<string, Promise<unknown>>();

  constructor(private readonly waitMs: number = INTRODUCTION_WAIT_MS) {}

  async send<T>(ledgerId: string, send: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      if (this.known.has(ledgerId)) return send();
      const first = this.introducing.get(ledgerId);
      if (!first) break;
      // Past the wait, it goes beside the introduction (and may be answered `busy`, then sent again).
      if (Date.now() >= deadline) return send();
      await waitAtMost(first, deadline - Date.now());
    }
    const sent = send();
    this.introducing.set(ledgerId, sent);
    try {
      const answer = await sent;
      this.known.add(ledgerId);
      if (this.known.size > INTRODUCED_AT_MOST) this.known.delete(this.known.values().next().value!);
      return answer;
    } finally {
      this.introducing.delete(ledgerId);
    }
  }
}

/** Resolves when `work` settles or `ms` pass, whichever is first. */
async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.then(noop, noop), late]).finally(() => clearTimeout(timer));
}

const noop = () => undefined;
