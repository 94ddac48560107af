/** The read-only tools: checking a plan, and looking at runs, their tasks, logs and events. */
import { z } from 'zod';
export declare const validatePlanTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const runStatusTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const listRunsTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const listTasksTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const taskLogTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
export declare const readEventsTool: import("../tool").ToolSpec<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>;
