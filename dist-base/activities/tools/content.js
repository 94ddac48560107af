"use strict";
/**
 * A tool's result as the text a model reads: MCP content blocks flattened, anything else as JSON,
 * cut to a bound (with a note saying how much was cut) so one result never floods a transcript.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_TOOL_RESULT_BYTES = void 0;
exports.mcpResultText = mcpResultText;
exports.toolText = toolText;
exports.boundedText = boundedText;
/** The most a tool result (or error) may take, in UTF-8 bytes, before it is cut. */
exports.MAX_TOOL_RESULT_BYTES = 64 * 1024;
/** The text of an MCP `tools/call` result: its content blocks, or its structured content when it has none. */
function mcpResultText(result) {
    const blocks = Array.isArray(result.content) ? result.content : [];
    if (blocks.length === 0 && result.structuredContent !== undefined)
        return toolText(result.structuredContent);
    return boundedText(blocks.map(blockText).join('\n'));
}
function blockText(block) {
    switch (block.type) {
        case 'text':
            return str(block.text);
        case 'image':
        case 'audio': {
            // Binary data means nothing to a chat model as base64: say what it was.
            const size = str(block.data).length;
            return `[${block.type} ${str(block.mimeType)}, ${size} base64 characters]`;
        }
        case 'resource_link':
            return `[resource ${str(block.uri)}${block.name ? ` (${str(block.name)})` : ''}]`;
        case 'resource':
            return typeof block.resource?.text === 'string'
                ? block.resource.text
                : `[resource ${str(block.resource?.uri)}, ${str(block.resource?.mimeType) || 'binary'}]`;
        default:
            return `[${str(block.type)} content]`;
    }
}
/** A field that should be a string, or nothing when a server sent something else. */
function str(value) {
    return typeof value === 'string' ? value : '';
}
/** A custom tool's answer as text: a string as is, anything else as JSON; bounded. */
function toolText(value) {
    if (typeof value === 'string')
        return boundedText(value);
    let json;
    try {
        json = JSON.stringify(value);
    }
    catch (err) {
        return `[result not serialisable as JSON: ${err.message}]`;
    }
    return boundedText(json ?? '');
}
/** `text` within MAX_TOOL_RESULT_BYTES, cut on a character boundary, with a note of what was cut. */
function boundedText(text, maxBytes = exports.MAX_TOOL_RESULT_BYTES) {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length <= maxBytes)
        return text;
    let end = maxBytes;
    // Back off continuation bytes (10xxxxxx) so the cut never splits a character.
    while (end > 0 && (bytes[end] & 0xc0) === 0x80)
        end -= 1;
    return `${bytes.subarray(0, end).toString('utf8')}\n[cut: ${bytes.length - end} more bytes of this result]`;
}
