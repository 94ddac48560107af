import { connectClient, formatProblems, loadConfig, loadPlanFile, startTeamRun } from 'teamrun';

// Starts the plan file given on the command line, follows it, and prints its result.
async function main(file: string): Promise<void> {
  const checked = loadPlanFile(file);
  if (!checked.ok) throw new Error(`${file}:\n${formatProblems(checked.problems)}`);
  const config = loadConfig();
  const client = await connectClient(config);
  const run = await startTeamRun(client, checked.plan, { taskQueue: config.connection.taskQueue });
  console.log(`started ${run.workflowId}`);
  const status = await run.status();
  console.log(`state ${status.state}: ${status.stats.total} tasks`);
  const result = await run.result();
  for (const task of result.tasks) console.log(`${task.key}: ${task.status} ${JSON.stringify(task.output ?? null)}`);
  console.log(`run ${result.status}`);
  await client.connection.close();
  if (result.status !== 'succeeded') process.exitCode = 1;
}

main(process.argv[2] ?? 'greetings.team.yaml').catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
