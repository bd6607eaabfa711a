import { type Kind } from '../model/kinds.js';
import { KINDS, kindOrder } from '../kinds/registry.js';
import type { ExportDocument, ExportResult } from '../providers/export-types.js';
import type { ExportSource } from '../providers/provider.js';

export type { ExportSource };
import { EXPORT_FILES, renderDocuments } from './yaml.js';
import { workspacesAsSets } from './workspace-sets.js';

export interface ExportRun extends ExportResult {
  sources: string[];
}

/**
 * Reads every source (one after another: each already bounds its own concurrency) and merges the
 * documents in dependency order (auth methods, rules, modules, workspaces), then by name.
 */
export async function exportLive(sources: readonly Pick<ExportSource, 'description' | 'kinds' | 'export'>[], kinds: ReadonlySet<Kind>): Promise<ExportRun> {
  const run: ExportRun = { documents: [], secrets: [], notes: [], sources: [] };
  for (const source of sources) {
    const wanted = new Set(source.kinds.filter((k) => kinds.has(k)));
    if (wanted.size === 0) continue;
    const r = await source.export(wanted);
    run.sources.push(source.description);
    run.documents.push(...r.documents);
    run.secrets.push(...r.secrets);
    run.notes.push(...r.notes);
  }
  run.documents.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return run;
}

export interface ExportFile {
  /** File name inside the output directory (EXPORT_FILES). */
  file: string;
  kind: Kind;
  documents: ExportDocument[];
  text: string;
}

const HEADER = (sources: readonly string[]) =>
  `Exported by \`converge export\` from ${sources.join(' and ') || 'nothing'}.\n` +
  'Secret values are never exported: each `fromEnv` names the environment variable to set before `converge plan`.';

export interface ExportShape {
  /** The workspaces of a module that has two or more as one NoCodeWorkspaceSet each (`--as-set`). */
  asSet?: boolean;
}

const shaped = (documents: readonly ExportDocument[], shape: ExportShape) => (shape.asSet === true ? workspacesAsSets(documents) : documents);

/** One file per kind that has documents (`--out DIR`); a kind's sets go into its file. */
export function exportFiles(run: ExportRun, shape: ExportShape = {}): ExportFile[] {
  const files: ExportFile[] = [];
  for (const kind of KINDS) {
    const documents = run.documents.filter((d) => d.kind === kind);
    if (documents.length === 0) continue;
    files.push({ file: EXPORT_FILES[kind], kind, documents, text: renderDocuments(shaped(documents, shape), HEADER(run.sources)) });
  }
  return files;
}

/** Everything as one multi-document stream (stdout). */
export function exportText(run: ExportRun, shape: ExportShape = {}): string {
  return run.documents.length === 0 ? '' : renderDocuments(shaped(run.documents, shape), HEADER(run.sources));
}
