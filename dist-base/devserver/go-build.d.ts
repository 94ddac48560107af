export type GoBuildFailure = 'GO_NOT_FOUND' | 'GO_DOWNLOAD_FAILED' | 'GO_BUILD_FAILED';
export interface GoBuild {
    /** What is built, for messages: "Temporal server", "Jaeger". */
    what: string;
    module: string;
    version: string;
    /** Packages of the module to build (`./cmd/jaeger`). */
    packages: string[];
    /** Where the caller's finished build will be, named in the log; the build goes to `<dir>.partial`. */
    dir: string;
    /** `go build -o`: a file name for one package, a directory (ending in a separator) for several. */
    output: (scratchBin: string) => string;
    /** The caller's error for a failed step. */
    fail: (code: GoBuildFailure, message: string) => Error;
    log: (line: string) => void;
}
/** Builds into `<dir>.partial/bin/`; returns that scratch directory and the module's own directory. */
export declare function goBuild(build: GoBuild): {
    scratch: string;
    moduleDir: string;
};
