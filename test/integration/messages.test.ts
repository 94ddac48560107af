import { it } from 'vitest';
import { TEAM_RUN_MESSAGES } from '../../src/workflows/messages';
import { runForTest, workerForTest } from '../helpers/scenario';

interface Definition {
  name: string;
  description?: string;
}
interface Metadata {
  definition: Record<'queryDefinitions' | 'signalDefinitions' | 'updateDefinitions', Definition[]>;
}

it('offers the Web UI every message of the table, with its description, and nothing else', async ({ expect }) => {
  const worker = await workerForTest();
  const handle = await runForTest(
    { name: 'messages', tasks: [{ key: 'hold', executor: { kind: 'sleep', ms: 60_000 } }] },
    worker,
  );
  // What the Web UI and `temporal workflow metadata` list: the handlers the run registered.
  const { definition } = await handle.query<Metadata>('__temporal_workflow_metadata');
  const listed = (definitions: Definition[]) => definitions.filter((d) => !d.name.startsWith('__'));
  const declared = (type: 'query' | 'signal' | 'update') =>
    Object.values(TEAM_RUN_MESSAGES)
      .filter((m) => m.definition.type === type)
      .map((m) => ({ name: m.definition.name, description: m.description }));
  expect(listed(definition.queryDefinitions)).toEqual(declared('query'));
  // attemptRunning and agentSteps are the worker's own signals, outside the contract: no description.
  expect(listed(definition.signalDefinitions)).toEqual([
    { name: 'attemptRunning' },
    { name: 'agentSteps' },
    ...declared('signal'),
  ]);
  // extendChildCarve is a child run's ask to its parent (docs/budgets.md, the tree), outside the table: workers send it.
  expect(listed(definition.updateDefinitions)).toEqual([
    { name: 'extendChildCarve', description: expect.stringContaining('A child team run asks for more') },
    ...declared('update'),
  ]);
});
