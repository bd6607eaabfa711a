export { createNomadVariablesBackend, type NomadVariablesBackend, type NomadVariablesBackendOptions } from './backend.js';
export { validateStatePath } from './paths.js';
export type { LockHolder } from './lock.js';
