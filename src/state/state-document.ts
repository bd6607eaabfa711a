import { ConvergeError } from '../diagnostics/errors.js';
import { isKind, kindOrder } from '../kinds/registry.js';
import { STATE_FORMAT_VERSION, type StateDocument, type StateRecord } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function corruptState(path: string, what: string, cause?: unknown): ConvergeError {
  return new ConvergeError('state.corrupt', `The state file ${path} is corrupt: ${what}`, {
    source: 'user',
    hint: 'restore it from version control or a backup; converge never discards a state it cannot read, since that would lose track of what it owns',
    ...(cause !== undefined ? { cause } : {}),
  });
}

/** The order records are kept in: by kind, then name. */
export function byKindThenName(a: StateRecord, b: StateRecord): number {
  return kindOrder(a.kind) - kindOrder(b.kind) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** Why `r` is not a state record, or undefined when it is one. `at` names it, e.g. `records[3]`. */
export function recordProblem(r: unknown, at: string): string | undefined {
  if (!isObject(r) || typeof r.kind !== 'string' || !isKind(r.kind) || typeof r.name !== 'string' || typeof r.id !== 'string') {
    return `${at} is not a record (kind, name, id)`;
  }
  if (!isObject(r.applied) || !isObject(r.secretDigests) || !isObject(r.extra) || typeof r.protect !== 'boolean') {
    return `${at} (${String(r.kind)}/${String(r.name)}) lacks applied/secretDigests/extra/protect`;
  }
  return undefined;
}

/** Why `c` is not a SentCreate (decisions.md §28), or undefined when it is one. */
export function sentCreateProblem(c: unknown, at: string): string | undefined {
  if (!isObject(c) || typeof c.kind !== 'string' || !isKind(c.kind) || typeof c.name !== 'string' || typeof c.at !== 'string') {
    return `${at} is not a sent create (kind, name, at)`;
  }
  return undefined;
}

/** Checks the document shape; a state that does not parse is never silently replaced. */
export function parseStateDocument(text: string, path: string): StateDocument {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw corruptState(path, `not valid JSON (${(e as Error).message})`, e);
  }
  if (!isObject(data)) throw corruptState(path, 'the top level is not an object');
  if (data.version !== STATE_FORMAT_VERSION) {
    throw new ConvergeError('state.version', `The state file ${path} has version ${JSON.stringify(data.version ?? null)}; this converge reads version ${STATE_FORMAT_VERSION}`, {
      source: 'user',
      hint: 'use the converge version that wrote it',
    });
  }
  if (typeof data.salt !== 'string' || data.salt === '') throw corruptState(path, '`salt` is missing');
  if (typeof data.serial !== 'number' || !Number.isInteger(data.serial) || data.serial < 0) throw corruptState(path, '`serial` is not a whole number');
  if (!Array.isArray(data.records)) throw corruptState(path, '`records` is not a list');
  data.records.forEach((r: unknown, i) => {
    const problem = recordProblem(r, `records[${i}]`);
    if (problem !== undefined) throw corruptState(path, problem);
  });
  if (data.sent !== undefined) {
    if (!Array.isArray(data.sent)) throw corruptState(path, '`sent` is not a list');
    data.sent.forEach((c: unknown, i) => {
      const problem = sentCreateProblem(c, `sent[${i}]`);
      if (problem !== undefined) throw corruptState(path, problem);
    });
  }
  return data as unknown as StateDocument;
}
