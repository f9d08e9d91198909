// The contract between kernel and plugins: every wire method, every shared type.
export * from './version';
export * from './errors';
export * from './config';
export * from './manifest';
export * from './lifecycle';
export * from './health';
export * from './log';
export * from './events';
export * from './tools';
export * from './stages';
export * from './io';
export * from './llm';
export * from './memory';
export * from './knowledge';
export * from './admin';
export * from './socket';
export * from './sessions';
