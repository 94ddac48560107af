import type { MailMessage } from '../../../team/mailbox';
/**
 * `agent-cli`: a coding-agent CLI (Claude Code, Codex, Gemini CLI) run headless in its streaming
 * JSON mode, contained as a shell task is and with its environment (so `teamrun send` and
 * `teamrun add-tasks` work inside it). Its stream is read as it comes: each turn's usage is
 * charged to the run at once, turns and tool calls become `agent:turn` / `agent:tool` events, and
 * its final result the task's output `{ content, sessionId?, worktree? }` (docs/agent-clis.md).
 */
export declare const agentCliExecutor: import("../define").DefinedExecutor<{
    cli: "claude-code" | "codex" | "gemini";
    prompt: string;
    cwd?: string | undefined;
    model?: string | undefined;
    args?: string[] | undefined;
    timeoutMs?: number | undefined;
    worktree?: boolean | undefined;
}>;
/** The task's prompt, then the mailbox messages waiting for it when the attempt started. */
export declare function withInbox(prompt: string, inbox: MailMessage[]): string;
