import { z } from 'zod';

/**
 * `worker.sandbox`: each shell and agent-cli attempt, and each MCP stdio server, runs under
 * bubblewrap (`bwrap`) in a PID namespace of its own, with its own /proc and no capabilities.
 * Another attempt's processes are then out of its sight: no `/proc/<pid>/environ`, so no
 * `TEAMRUN_ATTEMPT_SECRET` of another attempt (measured in docs/security.md: the tasks of one
 * worker share its user, and only a namespace or another user keeps one from the other's /proc).
 *
 * - `auto` (the default): that PID namespace (nothing else: the file system and IPC are the host's) when `bwrap`
 *   starts a sandbox here, checked once as the worker starts; where it cannot, the worker says so at start (and
 *   `teamrun doctor` does) and runs attempts unsandboxed, so not isolated from each other.
 * - `on`: always, with an IPC namespace too; a worker that cannot fails the attempts (`TeamSandboxUnavailable`).
 * - `off`: never (the tasks of one worker can read each other's secrets).
 *
 * `readOnly` also mounts the file system read-only but for the attempt's cwd, TMPDIR and `writable`; asked for, it
 * is required: with `auto` too, a worker that cannot sandbox then fails the attempts.
 */
export const SandboxConfigSchema = z
  .object({
    mode: z.enum(['auto', 'on', 'off']).default('auto'),
    // The bubblewrap binary: a name on PATH or an absolute path.
    command: z.string().min(1).max(4_096).default('bwrap'),
    readOnly: z.boolean().default(false),
    writable: z.array(z.string().min(1).max(4_096)).max(64).default([]),
  })
  .strict()
  .prefault({});
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;
