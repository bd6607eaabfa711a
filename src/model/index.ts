export * from './kinds.js';
export * from './action.js';
export * from './json.js';
export * from './secret-ref.js';
export * from './specs.js';
export * from './desired.js';
export * from './events.js';
