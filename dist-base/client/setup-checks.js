"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.searchAttributeState = searchAttributeState;
exports.registerSearchAttributes = registerSearchAttributes;
exports.searchAttributeCommands = searchAttributeCommands;
exports.connectionAddress = connectionAddress;
exports.taskQueuePollers = taskQueuePollers;
const search_attributes_1 = require("../workflows/search-attributes");
/** temporal.api.enums.v1.IndexedValueType, for the kinds teamrun's attributes use. */
const INDEXED_VALUE_TYPE = { Keyword: 2, Int: 3, Bool: 5 };
const TYPE_NAMES = {
    1: 'Text',
    2: 'Keyword',
    3: 'Int',
    4: 'Double',
    5: 'Bool',
    6: 'Datetime',
    7: 'KeywordList',
};
/** Which of teamrun's four search attributes the namespace has (operator API `ListSearchAttributes`). */
async function searchAttributeState(connection, namespace) {
    const listed = await connection.operatorService.listSearchAttributes({ namespace });
    const custom = (listed.customAttributes ?? {});
    const state = { present: [], missing: [], wrongType: [] };
    for (const [name, type] of Object.entries(search_attributes_1.SEARCH_ATTRIBUTE_TYPES)) {
        const actual = Object.hasOwn(custom, name) ? custom[name] : undefined;
        if (actual === undefined)
            state.missing.push(name);
        else if (actual === INDEXED_VALUE_TYPE[type])
            state.present.push(name);
        else
            state.wrongType.push({ name, expected: type, actual: TYPE_NAMES[actual] ?? String(actual) });
    }
    return state;
}
/** Registers the named attributes (the caller needs the operator API's permission). */
async function registerSearchAttributes(connection, namespace, names) {
    const searchAttributes = {};
    for (const name of names) {
        const type = search_attributes_1.SEARCH_ATTRIBUTE_TYPES[name];
        if (type)
            searchAttributes[name] = INDEXED_VALUE_TYPE[type];
    }
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
}
/**
 * The `temporal` CLI commands that register the named attributes, one a line. They name the
 * address in use: the `temporal` CLI's own default (127.0.0.1:7233) may be another server.
 */
function searchAttributeCommands(namespace, names, address) {
    return names.map((name) => `temporal operator search-attribute create --address ${address} --namespace ${namespace} ` +
        `--name ${name} --type ${search_attributes_1.SEARCH_ATTRIBUTE_TYPES[name]}`);
}
/** The address a client's connection dialled (a Connection keeps its options; other ConnectionLikes may not). */
function connectionAddress(connection) {
    return connection.options?.address ?? '<your Temporal address>';
}
/** The workers polling the task queue: workflow pollers and activity pollers, by identity. */
async function taskQueuePollers(connection, namespace, taskQueue) {
    const describe = async (taskQueueType) => {
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
