export * from './binary';
export * from './server';
