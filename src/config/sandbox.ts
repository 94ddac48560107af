import { z } from 'zod';

/**
 * `worker.sandbox`: each shell and agent-cli attempt, and each MCP stdio server, runs under
 * bubblewrap (`bwrap`) in a PID namespace of its own, with its own /proc and no capabilities.
 * Another attempt's processes are then out of its sight: no `/proc/<pid>/environ`, so no
 * `TEAMRUN_ATTEMPT_SECRET` of another attempt (measured in docs/security.md: the tasks of one
 * worker share its user, and only a namespace or another user keeps one from the other's /proc).
 * `readOnly` also mounts the file system read-only but for the attempt's cwd, TMPDIR and `writable`.
 */
export const SandboxConfigSchema = z
  .object({
    mode: z.enum(['off', 'on']).default('off'),
    // The bubblewrap binary: a name on PATH or an absolute path.
    command: z.string().min(1).max(4_096).default('bwrap'),
    readOnly: z.boolean().default(false),
    writable: z.array(z.string().min(1).max(4_096)).max(64).default([]),
  })
  .strict()
  .prefault({});
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;
