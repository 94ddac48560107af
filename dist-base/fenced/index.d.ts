export { FencedStoreDriverMissing, FencedWriteRejected, InvalidFencingToken } from './errors';
export { fencingTokenFromEnv, parseFencingToken } from './token';
export { FencedStore, withFencedStore, type FencedRecord, type FencedWrite, type FencedWriteResult } from './store';
