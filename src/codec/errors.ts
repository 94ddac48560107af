export type CodecErrorCode =
  | 'codec-key-unreadable'
  | 'codec-key-invalid'
  | 'codec-unknown-key'
  | 'codec-decrypt-failed'
  | 'codec-token-unreadable'
  | 'codec-server-not-configured';

import { TeamrunError } from '../errors';

/** A codec problem: which key, which file or variable, and what to do about it. */
export class CodecError extends TeamrunError {
  constructor(
    readonly code: CodecErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CodecError';
  }
}
