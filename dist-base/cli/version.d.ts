/** The package's version (package.json is two levels up from src/cli and from dist/cli alike). */
export declare function version(): string;
