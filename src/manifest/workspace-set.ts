import type { Diagnostic, SourceRange } from '../diagnostics/types.js';
import { didYouMean } from '../diagnostics/suggest.js';
import type { GeneratedOrigin } from '../model/desired.js';
import type { YamlTree } from './yaml-tree.js';
import { rangeAt } from './schema-errors.js';
import { escapePointer } from './yaml-entries.js';

/*
 * NoCodeWorkspaceSet: NoCodeWorkspace documents generated from data, expanded here, offline, before any
 * rule runs, so the engine and the providers only ever see ordinary `NoCodeWorkspace/<name>` documents
 * (docs/workspace-sets.md). The shape follows Argo CD's ApplicationSet (list and matrix generators, a
 * template filled from each item's parameters); placeholders are plain text substitution, nothing is
 * evaluated. Every generated node keeps the position of the set's node it came from (the template field,
 * an override, or the item), so every later finding points into the set.
 */

type Param = string | number | boolean;
type Params = Record<string, Param>;

export interface WorkspaceSetSpec {
  generators: Array<{ list?: Params[]; matrix?: Array<{ list: Params[] }> }>;
  template: Record<string, unknown> & { name: string; protect?: boolean };
  overrides?: Array<Record<string, unknown> & { name: string; protect?: boolean }>;
}

/** One generator item: its parameters, the node that wrote it, and how messages name it. */
interface Item {
  params: Params;
  /** Pointer of each parameter's value in the set, to read a number as written. */
  paramPointers: Record<string, string>;
  pointer: string;
  label: string;
}

/** A generated document before the loader validates it: a tree whose positions point into the set. */
export interface GeneratedDoc {
  name: string;
  tree: YamlTree;
  origin: GeneratedOrigin;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function label(params: Params): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
}

/** The items of every generator, in order; an empty generator or a clash inside a matrix is an error. */
function itemsOf(spec: WorkspaceSetSpec, error: (pointer: string, code: string, summary: string, detail: string) => void): Item[] {
  const items: Item[] = [];
  const listItems = (list: Params[], at: string): Item[] =>
    list.map((params, j) => ({
      params,
      paramPointers: Object.fromEntries(Object.keys(params).map((k) => [k, `${at}/${j}/${escapePointer(k)}`])),
      pointer: `${at}/${j}`,
      label: label(params),
    }));
  spec.generators.forEach((g, i) => {
    const at = `/spec/generators/${i}`;
    const kinds = (g.list ? 1 : 0) + (g.matrix ? 1 : 0);
    if (kinds !== 1) {
      error(at, 'workspace-set.generator', 'a generator is one of `list` or `matrix`', 'Write `- list: [ {param: value}, … ]` or `- matrix: [ {list: […]}, {list: […]} ]`.');
      return;
    }
    if (g.list) {
      if (g.list.length === 0) error(`${at}/list`, 'workspace-set.generator-empty', 'this generator makes no workspaces', 'Add items (`- {param: value}`), or remove the generator.');
      items.push(...listItems(g.list, `${at}/list`));
      return;
    }
    const lists = g.matrix ?? [];
    if (lists.length < 2) {
      error(`${at}/matrix`, 'workspace-set.generator-empty', 'a matrix combines two or more lists', 'Add a second `- list: […]`, or write the items as a `list` generator.');
      return;
    }
    let combos: Item[] = [{ params: {}, paramPointers: {}, pointer: `${at}/matrix`, label: '' }];
    lists.forEach((l, k) => {
      const listAt = `${at}/matrix/${k}/list`;
      if (l.list.length === 0) error(listAt, 'workspace-set.generator-empty', 'this list of the matrix is empty, so the matrix makes no workspaces', 'Add items, or remove the list from the matrix.');
      const next: Item[] = [];
      for (const c of combos) {
        for (const item of listItems(l.list, listAt)) {
          const clash = Object.keys(item.params).find((p) => p in c.params);
          if (clash !== undefined) {
            error(item.paramPointers[clash] ?? item.pointer, 'workspace-set.matrix-parameter', `parameter \`${clash}\` comes from two lists of the matrix`, 'Each list of a matrix gives its own parameters; rename one of them.');
            return;
          }
          const params = { ...c.params, ...item.params };
          // The first list's item stands for the combination (where whole-workspace findings point).
          const pointer = k === 0 ? item.pointer : c.pointer;
          next.push({ params, paramPointers: { ...c.paramPointers, ...item.paramPointers }, pointer, label: label(params) });
        }
      }
      combos = next;
    });
    items.push(...combos);
  });
  return items;
}

/** Where each generated node comes from, and what it holds, for one workspace (items without an override share it). */
interface Layout {
  positions: Record<string, SourceRange>;
  keyRanges: Record<string, SourceRange>;
  /** Generated pointer → set pointer, for placeholder findings. */
  from: Map<string, string>;
  /** Generated pointer → a number's text as written in the set. */
  numberSource: Record<string, string>;
}

/**
 * Lays the template (and one override) out as a generated document: the document's fields and where
 * each came from in the set. Fields of the override replace the template's; its variables replace the
 * template's variable of the same category and key, or are added.
 */
function layout(set: YamlTree, spec: WorkspaceSetSpec, override: number | undefined): { value: Record<string, unknown>; layout: Layout } {
  const positions: Record<string, SourceRange> = {};
  const keyRanges: Record<string, SourceRange> = {};
  const from = new Map<string, string>();
  const place = (value: unknown, setPtr: string, genPtr: string): void => {
    from.set(genPtr, setPtr);
    positions[genPtr] = rangeAt(set, setPtr);
    const key = set.keyRanges[setPtr];
    if (key) keyRanges[genPtr] = key;
    if (Array.isArray(value)) value.forEach((v, i) => place(v, `${setPtr}/${i}`, `${genPtr}/${i}`));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) place(v, `${setPtr}/${escapePointer(k)}`, `${genPtr}/${escapePointer(k)}`);
  };
  const { name, protect, ...fields } = spec.template;
  const o = override === undefined ? undefined : spec.overrides?.[override];
  const { name: _name, protect: oProtect, ...oFields } = o ?? { name: '' };
  const generatedSpec: Record<string, unknown> = {};
  const setSpecPtr = new Map<string, string>();
  for (const [k, v] of Object.entries(fields)) {
    generatedSpec[k] = v;
    setSpecPtr.set(k, `/spec/template/${escapePointer(k)}`);
  }
  const oAt = `/spec/overrides/${override ?? 0}`;
  for (const [k, v] of Object.entries(oFields)) {
    if (k === 'variables' && Array.isArray(v) && Array.isArray(generatedSpec.variables)) continue;
    generatedSpec[k] = v;
    setSpecPtr.set(k, `${oAt}/${escapePointer(k)}`);
  }
  positions['/kind'] = rangeAt(set, '/kind');
  from.set('/spec', '/spec/template');
  positions['/spec'] = rangeAt(set, o ? oAt : '/spec/template');
  keyRanges['/spec'] = set.keyRanges['/spec/template'] ?? positions['/spec'];
  place(name, '/spec/template/name', '/name');
  const value: Record<string, unknown> = { kind: 'NoCodeWorkspace', name };
  const p = oProtect ?? protect;
  if (p !== undefined) {
    value.protect = p;
    place(p, oProtect !== undefined ? `${oAt}/protect` : '/spec/template/protect', '/protect');
  }
  for (const [k, v] of Object.entries(generatedSpec)) {
    if (k === 'variables') continue;
    place(v, setSpecPtr.get(k) as string, `/spec/${escapePointer(k)}`);
  }
  const variables = generatedSpec.variables;
  if (Array.isArray(variables)) {
    const merged: Array<{ v: unknown; at: string }> = variables.map((v, i) => ({ v, at: `${setSpecPtr.get('variables') as string}/${i}` }));
    const oVars = Array.isArray(oFields.variables) && setSpecPtr.get('variables')?.startsWith('/spec/template') ? oFields.variables : [];
    const id = (v: unknown) => (isObject(v) ? `${String(v.category ?? 'terraform')}/${String(v.key)}` : '');
    oVars.forEach((v, i) => {
      const at = `${oAt}/variables/${i}`;
      const same = merged.findIndex((m) => id(m.v) === id(v));
      if (same >= 0) merged[same] = { v, at };
      else merged.push({ v, at });
    });
    generatedSpec.variables = merged.map((m) => m.v);
    from.set('/spec/variables', setSpecPtr.get('variables') as string);
    positions['/spec/variables'] = rangeAt(set, setSpecPtr.get('variables') as string);
    merged.forEach((m, i) => place(m.v, m.at, `/spec/variables/${i}`));
  }
  value.spec = generatedSpec;
  const numberSource: Record<string, string> = {};
  for (const [gen, at] of from) {
    const text = set.numberSource[at];
    if (text !== undefined) numberSource[gen] = text;
  }
  return { value, layout: { positions, keyRanges, from, numberSource } };
}

/** The template's strings with `{{ param }}` replaced; a missing parameter is reported once per place and name. */
function fill(value: unknown, genPtr: string, item: Item, lay: Layout, missing: (genPtr: string, param: string) => void, numberText: (item: Item, param: string) => string): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return value;
    return value.replace(PLACEHOLDER, (whole, param: string) => {
      if (!(param in item.params)) {
        missing(genPtr, param);
        return whole;
      }
      return numberText(item, param);
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => fill(v, `${genPtr}/${i}`, item, lay, missing, numberText));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fill(v, `${genPtr}/${escapePointer(k)}`, item, lay, missing, numberText);
    return out;
  }
  return value;
}

/** Strings of the template or overrides where `{{` opens no placeholder (`{{ 1x }}`, an unclosed `{{`). */
function badPlaceholders(value: unknown, pointer: string, found: string[]): void {
  if (typeof value === 'string') {
    if (value.replace(PLACEHOLDER, '').includes('{{')) found.push(pointer);
  } else if (Array.isArray(value)) value.forEach((v, i) => badPlaceholders(v, `${pointer}/${i}`, found));
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) badPlaceholders(v, `${pointer}/${escapePointer(k)}`, found);
}

/**
 * The workspaces of one set (a document that passed its schema), each a NoCodeWorkspace document tree the
 * loader validates and checks like a written one. Problems of the set itself go to `out`.
 */
export function expandWorkspaceSet(set: YamlTree, setName: string, out: Diagnostic[]): GeneratedDoc[] {
  const spec = (set.value as { spec: WorkspaceSetSpec }).spec;
  const error = (pointer: string, code: string, summary: string, detail: string) => out.push({ severity: 'error', code, summary, detail, range: rangeAt(set, pointer) });
  const bad: string[] = [];
  badPlaceholders(spec.template, '/spec/template', bad);
  (spec.overrides ?? []).forEach((o, j) => badPlaceholders(o, `/spec/overrides/${j}`, bad));
  for (const p of bad) error(p, 'workspace-set.placeholder', 'this `{{` opens no placeholder', 'A placeholder is `{{ name }}`: a parameter name of letters, digits and _ between double braces. Converge evaluates nothing inside.');
  if (bad.length > 0) return [];
  const items = itemsOf(spec, error);
  const paramNames = [...new Set(items.flatMap((i) => Object.keys(i.params)))];
  const numberText = (item: Item, param: string): string => {
    const v = item.params[param] as Param;
    const at = item.paramPointers[param];
    return typeof v === 'number' && at !== undefined ? (set.numberSource[at] ?? String(v)) : String(v);
  };

  // Overrides are found by generated name, so names come first (the template's name with each item's parameters).
  const reported = new Set<string>();
  const missingIn = (item: Item, lay: Layout) => (genPtr: string, param: string) => {
    const setPtr = lay.from.get(genPtr) ?? '/spec/template';
    const key = `${setPtr}\n${param}`;
    if (reported.has(key)) return;
    reported.add(key);
    const guess = didYouMean(param, paramNames);
    error(
      setPtr,
      'workspace-set.placeholder-unknown',
      `placeholder {{ ${param} }} is not a parameter of item ${item.label || '(none)'}`,
      (guess ? `Did you mean {{ ${guess} }}? ` : '') + `Give every item a \`${param}\` (parameters here: ${paramNames.join(', ') || 'none'}), or fix the placeholder.`,
    );
  };
  const base = layout(set, spec, undefined);
  const overrideOf = new Map<string, number>();
  (spec.overrides ?? []).forEach((o, j) => {
    if (overrideOf.has(o.name)) error(`/spec/overrides/${j}/name`, 'workspace-set.override-duplicate', `two overrides for "${o.name}"`, 'Keep one override per generated workspace.');
    else overrideOf.set(o.name, j);
  });
  const byName = new Map<string, Item>();
  const docs: GeneratedDoc[] = [];
  for (const item of items) {
    const name = fill(spec.template.name, '/name', item, base.layout, missingIn(item, base.layout), numberText) as string;
    const first = byName.get(name);
    if (first !== undefined) {
      error(
        item.pointer,
        'workspace-set.name-duplicate',
        `item ${item.label} generates the name "${name}", as item ${first.label} does`,
        'Generated names are unique: put a parameter that tells the items apart into `template.name`, or remove the repeated item.',
      );
      continue;
    }
    byName.set(name, item);
    const j = overrideOf.get(name);
    const { value, layout: lay } = j === undefined ? base : layout(set, spec, j);
    const filled = fill(value, '', item, lay, missingIn(item, lay), numberText) as Record<string, unknown>;
    const range = rangeAt(set, item.pointer);
    docs.push({
      name,
      origin: { set: setName, item: item.label },
      tree: { value: filled, positions: lay.positions, keyRanges: lay.keyRanges, scalarStyle: {}, rawQuoted: {}, numberSource: lay.numberSource, range },
    });
  }
  for (const [name, j] of overrideOf) {
    if (byName.has(name)) continue;
    const guess = didYouMean(name, [...byName.keys()]);
    error(
      `/spec/overrides/${j}/name`,
      'workspace-set.override-unknown',
      `no item of the set generates a workspace named "${name}"`,
      (guess ? `Did you mean "${guess}"? ` : '') + 'An override names a generated workspace; fix the name or remove the override.',
    );
  }
  return docs;
}
