/** `converge export` / `converge import` as a library: builds documents and state records, never prints. */
export * from '../providers/export-types.js';
export * from '../providers/export-names.js';
export * from './yaml.js';
export * from './export-live.js';
export * from '../engine/import-record.js';
export * from './workspace-sets.js';
