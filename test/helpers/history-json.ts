import { createRequire } from 'node:module';
import type { History } from '@temporalio/common/lib/proto-utils';

// `historyFromJSON` of @temporalio/common fails here ("type must be a Type"): this install keeps
// two copies of protobufjs 8, one under @temporalio/common and one under @temporalio/proto, and
// the history type comes from the other one. Parse with the copy @temporalio/proto uses.
const load = createRequire(__filename);
const fromProto = createRequire(load.resolve('@temporalio/proto'));
const { fromJson } = fromProto('protobufjs/ext/protojson') as {
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): History;
};
const { patchProtobufRoot } = load('@temporalio/proto/lib/patch-protobuf-root') as {
  patchProtobufRoot(root: unknown): { lookupType(name: string): unknown };
};
const historyType = patchProtobufRoot(load('@temporalio/proto')).lookupType('temporal.api.history.v1.History');

/** A recorded history (the JSON `temporal workflow show --output json` and the recorder write) as the SDK's type. */
export const historyFromJSON = (json: unknown): History => fromJson(historyType, json, { ignoreUnknownFields: true });
