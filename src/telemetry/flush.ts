/**
 * Flushing a process's spans before it exits on purpose (`process.exit`, where `beforeExit`
 * never fires): the CLI's failure path calls `flushTelemetry()`. Loads nothing of the SDK: sdk.ts
 * registers its shutdown here once tracing is on, and with tracing off this waits for nothing.
 */
let flush: (() => Promise<void>) | null = null;

export function onFlushTelemetry(fn: () => Promise<void>): void {
  flush = fn;
}

/** Exports what is buffered, waiting at most `withinMs` (an unreachable collector must not hold the exit). */
export async function flushTelemetry(withinMs = 5_000): Promise<void> {
  if (!flush) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    flush().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs).unref())),
  ]);
  clearTimeout(timer);
}
