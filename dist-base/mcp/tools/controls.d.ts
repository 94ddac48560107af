import { z } from 'zod';
export declare const startRunTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const interruptTaskTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const steerTaskTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const abortRunTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const adjudicateTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const approveTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const addTasksTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const sendMessageTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
