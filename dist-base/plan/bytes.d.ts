/** UTF-8 length of a string, without Node's Buffer: workflow code uses it too. */
export declare function utf8Bytes(text: string): number;
/** Size of a value as JSON, in bytes: what it weighs in a Temporal payload. */
export declare function jsonBytes(value: unknown): number;
