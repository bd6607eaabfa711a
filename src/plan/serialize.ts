import { ConvergeError } from '../diagnostics/errors.js';
import { ACTIONS } from '../model/action.js';
import { isKind } from '../kinds/registry.js';
import type { JsonValue } from '../model/json.js';
import { PLAN_FORMAT_VERSION, type Plan, type SavedPlan } from './types.js';

/*
 * Saved plans (`plan --out FILE`) are pretty JSON with a stable key order, so the same plan always
 * serialises to the same bytes (diffable, hashable). Top-level keys come in a fixed, readable order;
 * nested object keys are sorted.
 */

const TOP_LEVEL_ORDER = ['formatVersion', 'createdAt', 'summary', 'changes', 'drift', 'diagnostics', 'saved'];

function sortKeys(value: unknown): JsonValue {
  if (value === null || typeof value !== 'object') return value as JsonValue;
  if (Array.isArray(value)) return value.map((v) => sortKeys(v === undefined ? null : v));
  const obj = value as Record<string, unknown>;
  const out: Record<string, JsonValue> = {};
  for (const k of Object.keys(obj).sort()) {
    if (obj[k] !== undefined) out[k] = sortKeys(obj[k]);
  }
  return out;
}

export function serializePlan(plan: Plan | SavedPlan): string {
  const src = plan as unknown as Record<string, unknown>;
  const ordered: Record<string, JsonValue> = {};
  const keys = [...TOP_LEVEL_ORDER, ...Object.keys(src).filter((k) => !TOP_LEVEL_ORDER.includes(k)).sort()];
  for (const k of keys) {
    if (src[k] !== undefined) ordered[k] = sortKeys(src[k]);
  }
  return JSON.stringify(ordered, null, 2) + '\n';
}

function bad(file: string, what: string): ConvergeError {
  return new ConvergeError('plan.invalid', `${file} is not a converge saved plan: ${what}`, {
    source: 'user',
    hint: 'create one with `converge plan --out FILE` (the output of `plan --json` is a report, not a saved plan)',
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isCodedList = (v: unknown): boolean => Array.isArray(v) && v.every((x) => isObject(x) && typeof x.code === 'string');

/** Parses and checks the shape of a saved plan; every problem is a `plan.*` error naming the file. */
export function parseSavedPlan(text: string, file: string): SavedPlan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConvergeError('plan.invalid', `${file} is not valid JSON: ${(e as Error).message}`, {
      source: 'user',
      hint: 'create a saved plan with `converge plan --out FILE`; do not edit it by hand',
    });
  }
  if (!isObject(data)) throw bad(file, 'the top level is not an object');
  if (data.formatVersion !== PLAN_FORMAT_VERSION) {
    throw new ConvergeError(
      'plan.format-version',
      `${file} has plan format ${JSON.stringify(data.formatVersion ?? null)}; this converge reads format ${PLAN_FORMAT_VERSION}`,
      { source: 'user', hint: 'make the plan again with this version of converge: `converge plan --out FILE`' },
    );
  }
  if (typeof data.createdAt !== 'string') throw bad(file, '`createdAt` is missing');
  if (!Array.isArray(data.changes)) throw bad(file, '`changes` is not a list');
  data.changes.forEach((c: unknown, i) => {
    const where = `changes[${i}]`;
    if (!isObject(c)) throw bad(file, `${where} is not an object`);
    if (typeof c.kind !== 'string' || !isKind(c.kind)) throw bad(file, `${where}.kind ${JSON.stringify(c.kind)} is not a kind`);
    if (typeof c.name !== 'string') throw bad(file, `${where}.name is missing`);
    if (typeof c.action !== 'string' || !(ACTIONS as readonly string[]).includes(c.action)) {
      throw bad(file, `${where}.action ${JSON.stringify(c.action)} is not an action`);
    }
    if (!Array.isArray(c.fields) || !c.fields.every((f) => isObject(f) && typeof f.path === 'string' && typeof f.sensitive === 'boolean')) {
      throw bad(file, `${where}.fields is not a list of field changes`);
    }
    // A plan saved by an older converge holds sentences: kept as written (`legacy-text`), shown as they were.
    if (isStringArray(c.notes)) c.notes = c.notes.map((text) => ({ code: 'legacy-text', text }));
    if (typeof c.reason === 'string' && c.reasons === undefined) c.reasons = [{ code: 'legacy-text', text: c.reason }];
    delete c.reason;
    if (!isCodedList(c.notes)) throw bad(file, `${where}.notes is not a list of coded notes`);
    if (c.reasons !== undefined && !isCodedList(c.reasons)) throw bad(file, `${where}.reasons is not a list of coded reasons`);
    if (c.intent !== undefined && !(isObject(c.intent) && typeof c.intent.type === 'string')) throw bad(file, `${where}.intent is not an apply intent`);
  });
  if (!Array.isArray(data.drift)) throw bad(file, '`drift` is not a list');
  data.drift.forEach((d: unknown, i) => {
    if (!isObject(d)) throw bad(file, `drift[${i}] is not an object`);
    // A plan saved by an older converge says its drift in a sentence: kept as written (`legacy-text`).
    if (typeof d.message === 'string' && d.detail === undefined) d.detail = { code: 'legacy-text', text: d.message };
    delete d.message;
    if (!isObject(d.detail) || typeof d.detail.code !== 'string') throw bad(file, `drift[${i}].detail is not a coded drift detail`);
  });
  if (!Array.isArray(data.diagnostics)) throw bad(file, '`diagnostics` is not a list');
  if (!isObject(data.summary)) throw bad(file, '`summary` is missing');
  const saved = data.saved;
  if (!isObject(saved)) {
    throw bad(file, 'it has no `saved` section (was it written by `plan --json` instead of `plan --out`?)');
  }
  if (!isStringArray(saved.paths)) throw bad(file, '`saved.paths` is not a list of paths');
  if (!isStringArray(saved.targets)) throw bad(file, '`saved.targets` is not a list');
  if (saved.rewrite !== undefined && !isStringArray(saved.rewrite)) throw bad(file, '`saved.rewrite` is not a list');
  if (saved.adopt !== undefined && !isStringArray(saved.adopt)) throw bad(file, '`saved.adopt` is not a list');
  for (const flag of ['adoptAll', 'allowEmpty', 'refreshOnly', 'destroy'] as const) {
    if (saved[flag] !== undefined && typeof saved[flag] !== 'boolean') throw bad(file, `\`saved.${flag}\` is not true or false`);
  }
  if (saved.deletion !== undefined && saved.deletion !== 'safe' && saved.deletion !== 'destroy' && saved.deletion !== 'orphan') throw bad(file, '`saved.deletion` is not safe, destroy or orphan');
  if (!Array.isArray(saved.reads) || !saved.reads.every((r) => isObject(r) && typeof r.kind === 'string' && typeof r.name === 'string' && (r.digest === null || typeof r.digest === 'string') && isObject(r.fields))) {
    throw bad(file, '`saved.reads` is not a list of read fingerprints');
  }
  if (!isObject(saved.secretDigests) || !Object.values(saved.secretDigests).every((d) => typeof d === 'string')) {
    throw bad(file, '`saved.secretDigests` is not a map of digests');
  }
  return data as unknown as SavedPlan;
}
