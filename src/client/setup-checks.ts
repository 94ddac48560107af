import type { ConnectionLike as Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_TYPES } from '../workflows/search-attributes';

type SearchAttributeType = (typeof SEARCH_ATTRIBUTE_TYPES)[keyof typeof SEARCH_ATTRIBUTE_TYPES];

/** temporal.api.enums.v1.IndexedValueType, for the kinds teamrun's attributes use. */
const INDEXED_VALUE_TYPE: Record<SearchAttributeType, number> = { Keyword: 2, Int: 3, Bool: 5 };
const TYPE_NAMES: Record<number, string> = {
  1: 'Text',
  2: 'Keyword',
  3: 'Int',
  4: 'Double',
  5: 'Bool',
  6: 'Datetime',
  7: 'KeywordList',
};

export interface SearchAttributeState {
  /** Registered with the right type. */
  present: string[];
  /** Not registered: `--fix` or the commands register them. */
  missing: string[];
  /** Registered with another type: only a new name or another namespace helps. */
  wrongType: Array<{ name: string; expected: string; actual: string }>;
}

/** Which of teamrun's four search attributes the namespace has (operator API `ListSearchAttributes`). */
export async function searchAttributeState(connection: Connection, namespace: string): Promise<SearchAttributeState> {
  const listed = await connection.operatorService.listSearchAttributes({ namespace });
  const custom = (listed.customAttributes ?? {}) as Record<string, number>;
  const state: SearchAttributeState = { present: [], missing: [], wrongType: [] };
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTE_TYPES)) {
    const actual = Object.hasOwn(custom, name) ? custom[name] : undefined;
    if (actual === undefined) state.missing.push(name);
    else if (actual === INDEXED_VALUE_TYPE[type]) state.present.push(name);
    else state.wrongType.push({ name, expected: type, actual: TYPE_NAMES[actual] ?? String(actual) });
  }
  return state;
}

/** Registers the named attributes (the caller needs the operator API's permission). */
export async function registerSearchAttributes(
  connection: Connection,
  namespace: string,
  names: string[],
): Promise<void> {
  const searchAttributes: Record<string, number> = {};
  for (const name of names) {
    const type = SEARCH_ATTRIBUTE_TYPES[name as keyof typeof SEARCH_ATTRIBUTE_TYPES];
    if (type) searchAttributes[name] = INDEXED_VALUE_TYPE[type];
  }
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
}

/**
 * The `temporal` CLI commands that register the named attributes, one a line. They name the
 * address in use: the `temporal` CLI's own default (127.0.0.1:7233) may be another server.
 */
export function searchAttributeCommands(namespace: string, names: string[], address: string): string[] {
  return names.map(
    (name) =>
      `temporal operator search-attribute create --address ${address} --namespace ${namespace} ` +
      `--name ${name} --type ${SEARCH_ATTRIBUTE_TYPES[name as keyof typeof SEARCH_ATTRIBUTE_TYPES]}`,
  );
}

/** The address a client's connection dialled (a Connection keeps its options; other ConnectionLikes may not). */
export function connectionAddress(connection: Connection): string {
  return (connection as { options?: { address?: string } }).options?.address ?? '<your Temporal address>';
}

export interface Poller {
  identity: string;
  lastAccessTime: number | null;
}

/** The workers polling the task queue: workflow pollers and activity pollers, by identity. */
export async function taskQueuePollers(
  connection: Connection,
  namespace: string,
  taskQueue: string,
): Promise<{ workflow: Poller[]; activity: Poller[] }> {
  const describe = async (taskQueueType: number) => {
    const described = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType,
    });
    return (described.pollers ?? []).map((p) => ({
      identity: p.identity ?? '?',
      lastAccessTime: p.lastAccessTime?.seconds ? Number(p.lastAccessTime.seconds) * 1000 : null,
    }));
  };
  // temporal.api.enums.v1.TaskQueueType: 1 = workflow, 2 = activity.
  const [workflow, activity] = await Promise.all([describe(1), describe(2)]);
  return { workflow, activity };
}
