import { isDeepStrictEqual } from 'node:util';
import { WORKSPACE_SET_KIND } from '../model/kinds.js';
import type { ExportDocument } from '../providers/export-types.js';

/*
 * `converge export --as-set`: the workspaces made from one module written as one NoCodeWorkspaceSet
 * (docs/workspace-sets.md) instead of one document each. The set's list generator has one item per workspace
 * (its name, and each variable whose plain-text value differs between them); what all share is the template;
 * what only some have or differ in otherwise (a secret reference, a description) is that workspace's override.
 * Loaded again, the set generates the same documents, so a plan of the export shows no changes.
 */

/** A document the export writes: a managed kind's, or a set. */
export interface SetDocument {
  kind: typeof WORKSPACE_SET_KIND;
  name: string;
  spec: {
    generators: [{ list: Record<string, string>[] }];
    template: Record<string, unknown>;
    overrides?: Record<string, unknown>[];
  };
}

type Variable = { key: string; category?: string; value?: unknown } & Record<string, unknown>;
type WorkspaceDoc = Extract<ExportDocument, { kind: 'NoCodeWorkspace' }>;

const variableId = (v: Variable) => `${v.category ?? 'terraform'}/${v.key}`;

/** A text a set could not carry as written: the loader would read `{{` as a placeholder. */
function holdsBraces(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(holdsBraces);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsBraces);
  return false;
}

/** A placeholder name for a variable key (letters, digits and _), not `name` and not taken. */
function paramName(key: string, taken: Set<string>): string {
  let p = key.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z_]/.test(p)) p = `_${p}`;
  while (p === 'name' || taken.has(p)) p = `${p}_`;
  taken.add(p);
  return p;
}

function asSet(module: string, members: WorkspaceDoc[]): SetDocument {
  const specs = members.map((m) => m.spec as unknown as Record<string, unknown>);
  const items: Record<string, string>[] = members.map((m) => ({ name: m.name }));
  const overrides: Record<string, unknown>[] = members.map((m) => ({ name: m.name }));
  const template: Record<string, unknown> = { name: '{{ name }}' };
  const fields = [...new Set(specs.flatMap((s) => Object.keys(s)))].filter((f) => f !== 'variables');
  for (const f of fields) {
    const first = specs[0]?.[f];
    if (first !== undefined && specs.every((s) => isDeepStrictEqual(s[f], first))) template[f] = first;
    else specs.forEach((s, i) => s[f] !== undefined && ((overrides[i] as Record<string, unknown>)[f] = s[f]));
  }
  const vars = specs.map((s) => (s.variables as Variable[] | undefined) ?? []);
  const ids = [...new Set(vars.flatMap((vs) => vs.map(variableId)))];
  const templateVars: Variable[] = [];
  const taken = new Set<string>();
  for (const id of ids) {
    const each = vars.map((vs) => vs.find((v) => variableId(v) === id));
    const first = each[0];
    if (first !== undefined && each.every((v) => isDeepStrictEqual(v, first))) {
      templateVars.push(first);
      continue;
    }
    const rest = (v: Variable | undefined) => (v === undefined ? undefined : { ...v, value: undefined });
    if (first !== undefined && each.every((v) => v !== undefined && typeof v.value === 'string' && isDeepStrictEqual(rest(v), rest(first)))) {
      const p = paramName(first.key, taken);
      templateVars.push({ ...first, value: `{{ ${p} }}` });
      each.forEach((v, i) => ((items[i] as Record<string, string>)[p] = v?.value as string));
      continue;
    }
    each.forEach((v, i) => {
      if (v === undefined) return;
      const o = overrides[i] as { variables?: Variable[] };
      (o.variables ??= []).push(v);
    });
  }
  if (templateVars.length > 0) template.variables = templateVars;
  const used = overrides.filter((o) => Object.keys(o).length > 1);
  return {
    kind: WORKSPACE_SET_KIND,
    name: `${module}-workspaces`,
    spec: { generators: [{ list: items }], template, ...(used.length > 0 ? { overrides: used } : {}) },
  };
}

/**
 * The documents with the workspaces of every module that has two or more written as one set (each set where
 * its module's first workspace was); a workspace holding `{{` in a value stays a document of its own.
 */
export function workspacesAsSets(documents: readonly ExportDocument[]): Array<ExportDocument | SetDocument> {
  const byModule = new Map<string, WorkspaceDoc[]>();
  for (const d of documents) {
    if (d.kind !== 'NoCodeWorkspace' || holdsBraces(d.spec)) continue;
    byModule.set(d.spec.module, [...(byModule.get(d.spec.module) ?? []), d]);
  }
  const out: Array<ExportDocument | SetDocument> = [];
  for (const d of documents) {
    const group = d.kind === 'NoCodeWorkspace' ? byModule.get(d.spec.module) : undefined;
    if (group === undefined || group.length < 2 || !group.includes(d as WorkspaceDoc)) {
      out.push(d);
      continue;
    }
    if (group[0] === d) out.push(asSet(d.spec.module, group));
  }
  return out;
}
