import { dirname, relative, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/types.js';
import { sortDiagnostics } from '../diagnostics/types.js';
import type { AnyDesired, DesiredSet, Settings } from '../model/desired.js';
import { kindDefinition } from '../kinds/registry.js';
import type { KindDefinition } from '../kinds/types.js';
import { LOGIN_TEST_KIND, MOVED_KIND, SETTINGS_KIND, WORKSPACE_SET_KIND, type Kind } from '../model/kinds.js';
import type { SettingsSpec } from '../model/specs.js';
import type { NomadLoginTestSpec } from '../login/login-tests.js';
import { clipDiagnostic } from './clip.js';
import { chooseEnvironment, settingsForEnvironment, substituteValues, type ChosenEnvironment } from './environments.js';
import { discoverFiles, readManifestFile } from './files.js';
import { holdsNoConvergeDocument, skippedFilesNote } from './foreign-yaml.js';
import type { ManifestFile } from './files.js';
import { DocDiagnostics } from './rules/context.js';
import type { LoadedDoc } from './rules/context.js';
import { checkAcrossDocuments } from './rules/cross-document.js';
import { checkMoves } from './rules/moves.js';
import { checkSecrets } from './rules/secrets.js';
import { checkSettings } from './rules/settings.js';
import { DOCUMENT_KINDS, isDocumentKind, validatorFor } from './schema.js';
import { rangeAt, schemaDiagnostics, schemaErrorPointers } from './schema-errors.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { ShapeTable } from './position-shapes.js';
import { parseYamlFile } from './yaml-tree.js';
import { collapseGenerated, markGenerated } from './generated-diagnostics.js';
import { expandWorkspaceSet } from './workspace-set.js';
import type { YamlTree } from './yaml-tree.js';

export { parseGoDuration, formatGoDuration, parseGoDurationDetailed } from '../model/go-duration.js';
export { checkSelector } from '../kinds/nomad-binding-rule/selector.js';
export { didYouMean } from '../diagnostics/suggest.js';

export interface ManifestLoadResult {
  desired: DesiredSet;
  diagnostics: Diagnostic[];
  /** Display paths (relative to cwd) of every manifest file read, sorted. */
  files: string[];
  /** Display path → file text, for rendering source lines under diagnostics. */
  sources: Map<string, string>;
  /** The NomadLoginTest documents that passed their schema, in file order (plan reports their results). */
  loginTests?: LoadedLoginTest[];
}

export interface LoadedLoginTest {
  name: string;
  /** file:line of the document. */
  at: string;
  spec: NomadLoginTestSpec;
}

export interface LoadOptions {
  cwd?: string;
  /**
   * Environment to check `fromEnv` secret references against (plan, apply, drift: commands that will
   * send requests). Left out by `validate`, which runs offline without secrets.
   */
  env?: NodeJS.ProcessEnv;
  /**
   * False for commands that send no secret (state list/show/rm/…): secret references are then not
   * checked at all, neither environment variables nor `fromFile` paths. Default true.
   */
  checkSecrets?: boolean;
  /**
   * The environment (`--env NAME`) to load for: its values replace `{ fromValue: NAME }` references and
   * its settings replace the top-level ones (docs/environments.md). Absent: the manifests as they are.
   */
  environment?: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function lineLengths(text: string): (line: number) => number {
  let lines: string[] | undefined;
  return (line) => {
    lines ??= text.split(/\r?\n/);
    return (lines[line - 1] ?? '').length;
  };
}

/** Checks that a document is a mapping with a known kind; returns the kind or reports why not. */
function envelope(tree: YamlTree, lineLength: (n: number) => number, out: Diagnostic[]): LoadedDoc['kind'] | undefined {
  const v = tree.value;
  const kinds = DOCUMENT_KINDS.join(', ');
  if (!isPlainObject(v)) {
    out.push({
      severity: 'error',
      code: 'manifest.not-mapping',
      summary: 'a document must be a mapping with `kind`, `name` and `spec`',
      detail: `Start the document with \`kind: <one of ${kinds}>\`.`,
      range: tree.range,
    });
    return undefined;
  }
  const kind = v.kind;
  if (kind === undefined || kind === null) {
    const r = rangeAt(tree, '');
    out.push({
      severity: 'error',
      code: 'manifest.kind-missing',
      summary: 'the document has no `kind`',
      detail: `Add \`kind:\` with one of ${kinds}.`,
      range: { file: r.file, start: r.start, end: { line: r.start.line, col: Math.max(r.start.col + 1, lineLength(r.start.line) + 1) } },
    });
    return undefined;
  }
  if (typeof kind !== 'string' || !isDocumentKind(kind)) {
    const guess = typeof kind === 'string' ? didYouMean(kind, DOCUMENT_KINDS) : undefined;
    out.push({
      severity: 'error',
      code: 'manifest.kind-unknown',
      summary: `unknown kind ${typeof kind === 'string' ? `\`${kind}\`` : `(${JSON.stringify(kind)})`}`,
      detail: (guess ? `Did you mean \`${guess}\`? ` : '') + `Kinds: ${kinds}.`,
      range: rangeAt(tree, '/kind'),
    });
    return undefined;
  }
  return kind;
}

/** The spec as providers get it: the kind's own normalisation (e.g. numbers kept as written). */
function normaliseSpec(doc: LoadedDoc & { kind: Kind }): unknown {
  const def = kindDefinition(doc.kind) as KindDefinition;
  return def.normalise ? def.normalise(doc.value.spec as never, doc.tree.numberSource) : doc.value.spec;
}

/** What every file of one load adds to or shares. */
interface LoadShared {
  diagnostics: Diagnostic[];
  sources: Map<string, string>;
  skipped: string[];
  shapes: ShapeTable;
}

/** A document after the envelope check, before its schema check (values are substituted in between). */
type ParsedDoc = Omit<LoadedDoc, 'schemaValid' | 'schemaProblems'>;

async function loadFile(file: ManifestFile, { diagnostics, sources, skipped, shapes }: LoadShared): Promise<ParsedDoc[]> {
  const read = await readManifestFile(file);
  if (!read.ok) {
    diagnostics.push(read.diagnostic);
    return [];
  }
  const parsed = parseYamlFile(read.text, file.display, shapes);
  if (file.searched && parsed.diagnostics.length === 0 && holdsNoConvergeDocument(parsed.docs.map((d) => d.value))) {
    skipped.push(file.display);
    return [];
  }
  sources.set(file.display, read.text);
  diagnostics.push(...parsed.diagnostics);
  if (parsed.docs.length === 0 && parsed.diagnostics.length === 0) {
    diagnostics.push({
      severity: 'warning',
      code: 'manifest.empty',
      summary: 'no documents in this file',
      detail: 'The file is empty (or only comments); add documents or remove the file.',
      range: { file: file.display, start: { line: 1, col: 1 }, end: { line: 1, col: 1 } },
    });
  }
  const lineLength = lineLengths(read.text);
  const docs: ParsedDoc[] = [];
  for (const tree of parsed.docs) {
    const kind = envelope(tree, lineLength, diagnostics);
    if (kind === undefined) continue;
    const value = tree.value as Record<string, unknown>;
    docs.push({ kind, name: typeof value.name === 'string' ? value.name : '', file: file.display, baseDir: dirname(file.path), tree, value, lineLength });
  }
  return docs;
}

/**
 * The schema check of one document. Findings at or under `quiet` pointers (value references that were
 * not resolved, already reported) are left out: they would say the same thing again in other words.
 */
function checkSchema(doc: ParsedDoc, diagnostics: Diagnostic[], quiet: readonly string[] = []): LoadedDoc {
  const validate = validatorFor(doc.kind);
  const schemaValid = validate(doc.value);
  const errors = validate.errors ?? [];
  const pointers = schemaErrorPointers(errors);
  const shown = quiet.length === 0 ? errors : errors.filter((_e, i) => !quiet.some((q) => (pointers[i] ?? '') === q || (pointers[i] ?? '').startsWith(`${q}/`)));
  if (!schemaValid) {
    const found = schemaDiagnostics(shown, { tree: doc.tree, lineLength: doc.lineLength });
    if (doc.origin) for (const d of found) markGenerated(d, doc.name, doc.origin);
    diagnostics.push(...found);
  }
  return { ...doc, schemaValid, schemaProblems: schemaValid ? [] : pointers };
}

/**
 * Every document's schema check, after the chosen environment's values replaced its `{ fromValue: … }`
 * references (the Settings documents themselves are taken as written). Also the environment, when one was
 * asked for and the first Settings document declares it.
 */
function checkSchemas(parsed: readonly ParsedDoc[], environment: string | undefined, diagnostics: Diagnostic[]): { docs: LoadedDoc[]; env?: ChosenEnvironment } {
  const settingsDoc = parsed.find((d) => d.kind === SETTINGS_KIND);
  const settings = settingsDoc ? checkSchema(settingsDoc, diagnostics) : undefined;
  const usable = settings?.schemaValid ? { spec: settings.value.spec as SettingsSpec, tree: settings.tree } : undefined;
  // A Settings document the schema refused has already said why; the environment is not looked up in it.
  const env = environment !== undefined && (settings === undefined || usable) ? chooseEnvironment(environment, usable, diagnostics) : undefined;
  const declared = Object.keys(usable?.spec.environments ?? {}).sort();
  const withValues = (doc: ParsedDoc): LoadedDoc => {
    // When the environment asked for does not exist, that one error stands for its references too.
    const { value, unresolved } = substituteValues(doc.tree, doc.value, env, declared, diagnostics, environment === undefined || env !== undefined);
    return checkSchema(value === doc.value ? doc : { ...doc, value, name: typeof value.name === 'string' ? value.name : '' }, diagnostics, unresolved);
  };
  const docs = parsed.flatMap((doc) => {
    if (doc === settingsDoc && settings) return [settings];
    if (doc.kind === SETTINGS_KIND) return [checkSchema(doc, diagnostics)];
    const checked = withValues(doc);
    if (doc.kind !== WORKSPACE_SET_KIND || !checked.schemaValid) return [checked];
    // A set's workspaces follow it, in item order, as if written there, each with the environment's values.
    const generated = expandWorkspaceSet(doc.tree, checked.name, diagnostics).map((g) => {
      const value = g.tree.value as Record<string, unknown>;
      const name = typeof value.name === 'string' ? value.name : '';
      return withValues({ kind: 'NoCodeWorkspace', name, file: doc.file, baseDir: doc.baseDir, tree: g.tree, value, lineLength: doc.lineLength, origin: g.origin });
    });
    return [checked, ...generated];
  });
  return { docs, ...(env ? { env } : {}) };
}

/** The Settings a run uses: the document's, or its environment's over them. */
function settingsOf(doc: LoadedDoc, env: ChosenEnvironment | undefined): Settings {
  const spec = doc.value.spec as SettingsSpec;
  const base = { range: doc.tree.range, baseDir: doc.baseDir };
  if (!env) return { spec, ...base };
  const { nomad, tfe } = env.spec;
  return {
    spec: settingsForEnvironment(spec, env),
    ...base,
    environment: { name: env.name, ...(nomad?.address ? { nomadAddress: nomad.address } : {}), ...(tfe?.address ? { tfeAddress: tfe.address } : {}) },
  };
}

/** The semantic rules of one document (its spec has the TypeScript shape when the schema passed). */
async function checkDocument(d: DocDiagnostics, opts: LoadOptions): Promise<void> {
  const doc = d.doc;
  if (doc.kind === SETTINGS_KIND) {
    checkSettings(d, doc.value.spec as SettingsSpec);
    return;
  }
  // Login tests need every document: they run with the rules across documents. A set's own findings were
  // made when it was expanded; its workspaces are checked as documents of their own.
  if (doc.kind === LOGIN_TEST_KIND || doc.kind === WORKSPACE_SET_KIND) return;
  // So do moves: their addresses are checked against every document (rules/moves.ts).
  if (doc.kind === MOVED_KIND) return;
  // Each definition's check takes its own kind's spec; the document's kind picked the definition.
  const def = kindDefinition(doc.kind) as KindDefinition;
  def.check(d, doc.value.spec as never);
  if (opts.checkSecrets !== false) await checkSecrets(d, def.secretSites?.(doc.value.spec as never) ?? [], opts.env);
}

/** `/spec/config` and `/spec/config/oidcClientID` are related (one contains the other); `/spec/a` and `/spec/ab` are not. */
const related = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/**
 * A schema error must not hide a document's other problems (a run reports every problem at once): the
 * semantic rules run on a schema-invalid document too. They expect the schema's shape, so one that
 * trips over a wrong type is passed over, and a finding at a field the schema already flagged (or
 * around it: "config needs oidcClientId" around the misspelt `oidcClientID`) is dropped, so one mistake
 * is not reported twice in different words.
 */
async function rulesOfInvalidDocument(doc: LoadedDoc, opts: LoadOptions): Promise<Diagnostic[]> {
  const found: Diagnostic[] = [];
  const d = new DocDiagnostics(doc, found, (pointer) => !doc.schemaProblems.some((q) => related(pointer, q)));
  try {
    await checkDocument(d, opts);
  } catch {
    // A rule read a field of the wrong type: the schema error at that field already says what to fix.
  }
  return found;
}

/**
 * Reads, parses and validates manifests: files, or directories searched recursively for *.yaml/*.yml
 * (hidden folders, node_modules and what `.convergeignore` lists skipped; found files with no converge
 * document skipped with one note). Never throws for bad input: every problem in every file
 * is a diagnostic, sorted. `desired` holds the documents that passed their schema.
 */
export async function loadManifests(paths: string[], opts: LoadOptions = {}): Promise<ManifestLoadResult> {
  const cwd = opts.cwd ?? process.cwd();
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  const found = await discoverFiles(paths, cwd);
  diagnostics.push(...found.diagnostics);

  const skipped: string[] = [];
  const shared: LoadShared = { diagnostics, sources, skipped, shapes: new ShapeTable() };
  const perFile = await Promise.all(found.files.map((f) => loadFile(f, shared)));
  const { docs, env } = checkSchemas(perFile.flat(), opts.environment, diagnostics);
  const note = skippedFilesNote(skipped.sort());
  if (note) diagnostics.push(note);

  const objects: AnyDesired[] = [];
  const loginTests: LoadedLoginTest[] = [];
  let settings: Settings = { spec: {} };
  let settingsSeen = false;
  for (const doc of docs) {
    if (!doc.schemaValid) {
      diagnostics.push(...(await rulesOfInvalidDocument(doc, opts)));
      continue;
    }
    const d = new DocDiagnostics(doc, diagnostics);
    await checkDocument(d, opts);
    if (doc.kind === SETTINGS_KIND) {
      if (!settingsSeen) settings = settingsOf(doc, env);
      settingsSeen = true;
      continue;
    }
    if (doc.kind === WORKSPACE_SET_KIND) continue;
    if (doc.kind === LOGIN_TEST_KIND) {
      loginTests.push({ name: doc.name, at: `${doc.file}:${doc.tree.range.start.line}`, spec: doc.value.spec as NomadLoginTestSpec });
      continue;
    }
    if (doc.kind === MOVED_KIND) continue;
    objects.push({
      kind: doc.kind,
      name: doc.name,
      protect: doc.value.protect === true,
      spec: normaliseSpec(doc as LoadedDoc & { kind: Kind }),
      range: doc.tree.range,
      positions: doc.tree.positions,
      baseDir: doc.baseDir,
      ...(doc.origin ? { origin: doc.origin } : {}),
    } as AnyDesired);
  }
  checkAcrossDocuments(docs, diagnostics);
  const moves = checkMoves(docs, (doc) => new DocDiagnostics(doc, diagnostics));
  const root = settings.baseDir ?? cwd;
  // One string per file, shared by its documents (a fleet file holds thousands).
  const sourceOfFile = new Map<string, string>();
  for (const o of objects) {
    const file = o.range.file;
    let source = sourceOfFile.get(file);
    if (source === undefined) sourceOfFile.set(file, (source = relative(root, resolve(cwd, file))));
    o.source = source;
  }

  return {
    desired: { objects, settings, root, ...(moves.length > 0 ? { moves } : {}) },
    diagnostics: sortDiagnostics(collapseGenerated(diagnostics).map(clipDiagnostic)),
    files: found.files.map((f) => f.display).filter((f) => !skipped.includes(f)),
    sources,
    ...(loginTests.length > 0 ? { loginTests } : {}),
  };
}
