/** converge as a library: the same pieces the CLI uses. */
export * from './model/index.js';
export * from './diagnostics/index.js';
export * from './plan/types.js';
export * from './secrets/index.js';
export type * from './providers/provider.js';
export type * from './state/types.js';
export { exportLive, exportFiles, exportText, importRecord, renderDocuments, EXPORT_FILES } from './export/index.js';
export type { ExportDocument, ExportResult, ExportedSecret, ExportSource, ExportRun, ExportFile, ImportOutcome } from './export/index.js';
export { createNomadExporter } from './providers/nomad/export.js';
export { createTfeExporter } from './providers/tfe/export.js';
