/**
 * A workflow's current details made when someone reads them (the Web UI, `temporal workflow metadata`: the SDK's
 * `__temporal_workflow_metadata` query), not on every workflow step. Made on every step they cost about 0.07 ms a step
 * on a run of 2,000 tasks, and more as a graph grows; the cost bench could not tell the difference at 330 tasks a
 * second, where one step settles several tasks (docs/benchmarks.md, the sixth pass).
 *
 * The SDK keeps what `setCurrentDetails` is given and answers the query with it through the JSON payload converter,
 * which serializes a value by its `toJSON`: so the details given are a value whose `toJSON` makes them. Interceptors
 * cannot do it: the SDK runs none for its own `__temporal_` queries. No command either way: histories are the same.
 * test/integration/details-on-query.test.ts reads them through the query. Workflow code.
 */
import { setCurrentDetails } from '@temporalio/workflow';

/** Sets the workflow's current details to what `make` returns whenever they are read (once per read). */
export function detailsOnQuery(make: () => string): void {
  const lazy = {
    toJSON(): string {
      try {
        return make();
      } catch (err) {
        // A query must still answer: say why there are no details rather than fail the Web UI's page.
        return `(no details: ${err instanceof Error ? err.message : String(err)})`;
      }
    },
  };
  // The SDK types the details as a string; what it does with them is JSON.stringify, which calls toJSON.
  setCurrentDetails(lazy as unknown as string);
}
