/**
 * An MCP server's tools as a model sees them: `<server>__<tool>`, in the characters OpenAI allows
 * a function name. A tool whose name does not fit is renamed predictably (each other character
 * becomes `_`; past 64 characters the name is cut and ends in a hash of the original), and the call
 * goes to its original name. A tool that still cannot be offered (its new name taken by another,
 * its schema too large) is left out, and asking for it says why.
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_NAME_PATTERN, TOOL_SEPARATOR } from '../../plan/tool-names';
import type { ToolSpec } from './types';

/** OpenAI's bound on a function's description. */
export const MAX_TOOL_DESCRIPTION_CHARS = 1024;
/** A tool's input schema, as JSON: past this it is left out (it would crowd every model request). */
export const MAX_TOOL_SCHEMA_BYTES = 32 * 1024;
const MAX_NAME = 64;
const HASH_CHARS = 6;

/** One server's tools for one attempt: by the name the model uses, with the name the server knows. */
export interface ServerTools {
  tools: Map<string, { spec: ToolSpec; original: string }>;
  /** Tools not offered, by the name they would have had, with the reason. */
  leftOut: Map<string, string>;
}

export function serverTools(server: string, listed: ReadonlyArray<Tool>): ServerTools {
  const tools: ServerTools['tools'] = new Map();
  const leftOut: ServerTools['leftOut'] = new Map();
  for (const tool of listed) {
    const name = modelName(server, tool.name);
    const schemaBytes = Buffer.byteLength(JSON.stringify(tool.inputSchema ?? {}));
    if (tools.has(name)) {
      leftOut.set(name, `"${tool.name}" and "${tools.get(name)?.original}" of server "${server}" both map to ${name}`);
    } else if (schemaBytes > MAX_TOOL_SCHEMA_BYTES) {
      leftOut.set(name, `its input schema is ${schemaBytes} bytes, over ${MAX_TOOL_SCHEMA_BYTES}`);
    } else {
      const description = tool.description ?? tool.title;
      tools.set(name, {
        original: tool.name,
        spec: {
          name,
          ...(description ? { description: description.slice(0, MAX_TOOL_DESCRIPTION_CHARS) } : {}),
          parameters: { ...tool.inputSchema, type: 'object' },
          // A read-only tool changes nothing, so running it again is safe (MCP reads idempotentHint only otherwise).
          idempotent: tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true,
        },
      });
    }
  }
  return { tools, leftOut };
}

/** `<server>__<tool>`, made to fit `^[A-Za-z0-9_-]{1,64}$` whatever the server named its tool. */
export function modelName(server: string, tool: string): string {
  const name = `${server}${TOOL_SEPARATOR}${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (TOOL_NAME_PATTERN.test(name) && name.length > server.length + TOOL_SEPARATOR.length) return name;
  const hash = createHash('sha256').update(tool).digest('hex').slice(0, HASH_CHARS);
  return `${name.slice(0, MAX_NAME - HASH_CHARS - 1)}_${hash}`;
}
