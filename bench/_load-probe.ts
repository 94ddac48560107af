import { Runtime, DefaultLogger } from '@temporalio/worker';
import { startBenchEnv } from './env';
import { measureLoad } from './load';
(async () => {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await startBenchEnv({ serverArgs: process.env.SERVER_ARGS ? process.env.SERVER_ARGS.split(' ') : [] });
  try {
    const r = await measureLoad(env, { runs: 20, tasksPerRun: 50, teammates: Number(process.env.TM ?? 4), taskMs: 300, passes: Number(process.env.PASSES ?? 2), stickyScheduleToStartMs: process.env.STICKY ? Number(process.env.STICKY) : undefined }, (l) => console.error(l));
    console.log(JSON.stringify(r.passes, null, 1));
    for (const p of r.passes) for (const l of p.lostDetail) {
      const h = await env.client.workflow.getHandle(l.workflowId).fetchHistory();
      const sched = (h.events ?? []).find((e) => e.activityTaskScheduledEventAttributes?.activityId === l.activityId);
      const sid = String(sched?.eventId);
      for (const e of h.events ?? []) {
        const a: any = e.activityTaskStartedEventAttributes ?? e.activityTaskTimedOutEventAttributes ?? e.activityTaskCompletedEventAttributes;
        if (String(e.eventId) === sid || (a && String(a.scheduledEventId) === sid)) console.log(l.workflowId, JSON.stringify(e, (k, v) => (k === 'data' ? Buffer.from(v).toString() : v)));
      }
    }
  } finally { if (!process.env.KEEP) await env.close(); }
  process.exit(0);
})();
