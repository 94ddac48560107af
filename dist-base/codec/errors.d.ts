export type CodecErrorCode = 'codec-key-unreadable' | 'codec-key-invalid' | 'codec-unknown-key' | 'codec-decrypt-failed' | 'codec-token-unreadable' | 'codec-server-not-configured';
import { TeamrunError } from '../errors';
/** A codec problem: which key, which file or variable, and what to do about it. */
export declare class CodecError extends TeamrunError {
    readonly code: CodecErrorCode;
    constructor(code: CodecErrorCode, message: string);
}
