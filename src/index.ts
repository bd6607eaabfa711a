/** converge as a library: the same pieces the CLI uses. */
export * from './model/index.js';
export * from './diagnostics/index.js';
export * from './plan/types.js';
export * from './secrets/index.js';
export type * from './providers/provider.js';
export type * from './state/types.js';
