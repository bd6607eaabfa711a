/** `converge export` / `converge import` as a library: builds documents and state records, never prints. */
export * from './types.js';
export * from './names.js';
export * from './yaml.js';
export * from './export-live.js';
export * from './import-record.js';
