"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_TOOL_SCHEMA_BYTES = exports.MAX_TOOL_DESCRIPTION_CHARS = void 0;
exports.serverTools = serverTools;
exports.modelName = modelName;
/**
 * An MCP server's tools as a model sees them: `<server>__<tool>`, in the characters OpenAI allows
 * a function name. A tool whose name does not fit is renamed predictably (each other character
 * becomes `_`; past 64 characters the name is cut and ends in a hash of the original), and the call
 * goes to its original name. A tool that still cannot be offered (its new name taken by another,
 * its schema too large) is left out, and asking for it says why.
 */
const node_crypto_1 = require("node:crypto");
const tool_names_1 = require("../../plan/tool-names");
/** OpenAI's bound on a function's description. */
exports.MAX_TOOL_DESCRIPTION_CHARS = 1024;
/** A tool's input schema, as JSON: past this it is left out (it would crowd every model request). */
exports.MAX_TOOL_SCHEMA_BYTES = 32 * 1024;
const MAX_NAME = 64;
const HASH_CHARS = 6;
function serverTools(server, listed) {
    const tools = new Map();
    const leftOut = new Map();
    for (const tool of listed) {
        const name = modelName(server, tool.name);
        const schemaBytes = Buffer.byteLength(JSON.stringify(tool.inputSchema ?? {}));
        if (tools.has(name)) {
            leftOut.set(name, `"${tool.name}" and "${tools.get(name)?.original}" of server "${server}" both map to ${name}`);
        }
        else if (schemaBytes > exports.MAX_TOOL_SCHEMA_BYTES) {
            leftOut.set(name, `its input schema is ${schemaBytes} bytes, over ${exports.MAX_TOOL_SCHEMA_BYTES}`);
        }
        else {
            const description = tool.description ?? tool.title;
            tools.set(name, {
                original: tool.name,
                spec: {
                    name,
                    ...(description ? { description: description.slice(0, exports.MAX_TOOL_DESCRIPTION_CHARS) } : {}),
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
function modelName(server, tool) {
    const name = `${server}${tool_names_1.TOOL_SEPARATOR}${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    if (tool_names_1.TOOL_NAME_PATTERN.test(name) && name.length > server.length + tool_names_1.TOOL_SEPARATOR.length)
        return name;
    const hash = (0, node_crypto_1.createHash)('sha256').update(tool).digest('hex').slice(0, HASH_CHARS);
    return `${name.slice(0, MAX_NAME - HASH_CHARS - 1)}_${hash}`;
}
