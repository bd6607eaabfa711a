/** converge as a library: the same pieces the CLI uses. */
export * from './model/index.js';
export * from './diagnostics/index.js';
export * from './plan/types.js';
export * from './plan/codes.js';
export * from './secrets/index.js';
export type * from './providers/provider.js';
export type * from './state/types.js';
export { exportLive, exportFiles, exportText, importRecord, renderDocuments, EXPORT_FILES } from './export/index.js';
export type { ExportDocument, ExportResult, ExportedSecret, ExportSource, ExportRun, ExportFile, ImportOutcome } from './export/index.js';
export { createNomadExporter } from './providers/nomad/export.js';
export { createTfeExporter } from './providers/tfe/export.js';
export * from './operations/index.js';
export type { ApplyCounts, ApplyResult, PlanRun } from './engine/types.js';
export type { ManifestLoadResult } from './manifest/index.js';
export { KINDS, isKind, parseAddress, kindDefinition } from './kinds/registry.js';
export type { KindDefinition } from './kinds/types.js';
export { renderPlanText } from './views/plan-text.js';
export { renderPlanJson } from './views/plan-json.js';
export { renderPlanMarkdown } from './views/plan-markdown.js';
export { renderDriftText, renderDriftJson, renderDriftMarkdown } from './views/drift.js';
export { renderApplyResultText, renderApplyResultJson, outcomeSentence } from './views/apply-result.js';
// The words of the codes (plan/codes.ts), for a library user who shows reasons, notes, drift or outcomes.
export { reasonSentence, noteSentence } from './views/change-sentences.js';
export { driftSentence } from './views/drift-sentences.js';
export { progressText } from './views/apply-progress.js';
export { renderDiagnosticsText } from './views/diagnostics.js';
