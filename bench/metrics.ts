/**
 * The dev server's own Prometheus endpoint (`--metrics-port`): how many RPCs of one kind it
 * served. Heartbeats are counted here, where they cost (each is a server RPC, and on Temporal
 * Cloud a billable action), not where a worker believes it sent them.
 */
export async function serverRequests(metricsUrl: string, operation: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (!/^service_requests(_total)?\{/.test(line)) continue;
    if (!line.includes(`operation="${operation}"`)) continue;
    // Count each request once: at the frontend (the history service sees it again).
    if (line.includes('service_name="') && !line.includes('service_name="frontend"')) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

export const HEARTBEAT_RPC = 'RecordActivityTaskHeartbeat';
