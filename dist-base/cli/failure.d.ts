/** How the CLI ends on an error that reached it: what it prints on stderr and its exit code. */
export type Failure = {
    kind: 'user-error';
    code: string;
    exitCode: number;
    output: string;
} | {
    kind: 'bug';
    exitCode: number;
    output: string;
};
/**
 * A `TeamrunError` was thrown on purpose with a message written for the user: print that, no
 * stack. Anything else (a TypeError, a Node `ENOENT` nobody turned into a TeamrunError) is a bug
 * and shows its stack, so it can be reported. One exception: the SDK's own error for a payload
 * nothing here can decode, which every command that reads a run meets the same way.
 */
export declare function classifyFailure(err: unknown): Failure;
