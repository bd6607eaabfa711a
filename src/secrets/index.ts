export * from './types.js';
export * from './redactor.js';
export * from './resolver.js';
