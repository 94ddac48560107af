export { defineTool, type CustomTool, type DefinedTool, type ToolContext } from './define-tool';
export { DEFAULT_TOOL_TIMEOUT_MS, TOOL_FAILURE_TYPES } from './attempt-tools';
export { MAX_TOOL_RESULT_BYTES } from './content';
export { FENCING_TOKEN_META } from './mcp-connection';
export { workerTools, type WorkerTools } from './toolbox';
export type { ToolCallResult, ToolSpec, Toolbox, ToolboxFactory } from './types';
