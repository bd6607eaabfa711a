import { ConvergeError } from '../../diagnostics/errors.js';

/*
 * Variable paths must match `^[a-zA-Z0-9-_~/]{1,128}$` (no `.`), and `nomad/` is reserved
 * (docs/reference/nomad-api.md §9). We check the configured path up front so a typo fails before any
 * request, with a message that says what is wrong, instead of a 400 halfway through a write.
 */

/**
 * Longest suffix we append: `/chunk-<index ≤ 20 digits>-<8 hex>-<n ≤ 4 digits>` (41), `/journal-<index>-<8 hex>` (38)
 * and `-lock` (5).
 */
const SUFFIX_ROOM = 48;
export const MAX_STATE_PATH = 128 - SUFFIX_ROOM;

const PATH_CHARS = /^[a-zA-Z0-9\-_~/]+$/;

export function validateStatePath(path: string, what = 'state path'): void {
  const fail = (why: string, hint: string): never => {
    throw new ConvergeError('state.nomad.bad-path', `The Nomad ${what} "${path}" is not usable: ${why}`, {
      source: 'user',
      hint,
    });
  };
  if (path === '') fail('it is empty', 'set a path such as converge/state');
  if (!PATH_CHARS.test(path)) {
    const bad = [...new Set([...path].filter((c) => !/[a-zA-Z0-9\-_~/]/.test(c)))].join(' ');
    fail(`Nomad Variables paths allow only letters, digits, - _ ~ and /, not ${bad}`, 'write it like converge/state (no dots: converge.state is refused by Nomad)');
  }
  if (path.startsWith('/') || path.endsWith('/') || path.includes('//')) {
    fail('it has a leading, trailing or doubled /', 'write it like converge/state');
  }
  if (path === 'nomad' || path.startsWith('nomad/')) fail('paths under nomad/ are reserved by Nomad', 'use a path such as converge/state');
  if (path.length > MAX_STATE_PATH) {
    fail(`it is ${path.length} characters; converge appends up to ${SUFFIX_ROOM} for chunks and the lock, and Nomad allows 128`, `keep it to ${MAX_STATE_PATH} characters`);
  }
}

export const defaultLockPath = (statePath: string) => `${statePath}-lock`;

/** Prefix shared by every chunk of the state at `statePath`. */
export const chunkPrefix = (statePath: string) => `${statePath}/chunk-`;

/**
 * `<path>/chunk-<generation>-<n>`. The generation makes each write's chunks new variables, so a
 * writer never overwrites chunks the committed head still points to (see README "Commit protocol").
 */
export const chunkPath = (statePath: string, generation: string, n: number) => `${chunkPrefix(statePath)}${generation}-${n}`;

export interface ParsedChunkPath {
  generation: string;
  /** Head ModifyIndex the writer of this generation expected to CAS against. */
  baseIndex: number;
  n: number;
}

export function parseChunkPath(statePath: string, path: string): ParsedChunkPath | undefined {
  const prefix = chunkPrefix(statePath);
  if (!path.startsWith(prefix)) return undefined;
  const m = /^(\d+)-([0-9a-f]{8})-(\d+)$/.exec(path.slice(prefix.length));
  if (!m) return undefined;
  return { generation: `${m[1]}-${m[2]}`, baseIndex: Number(m[1]), n: Number(m[3]) };
}

/** Prefix shared by every journal entry of the state at `statePath` (journal.ts). */
export const journalPrefix = (statePath: string) => `${statePath}/journal-`;

/**
 * `<path>/journal-<id>`, id = `<head ModifyIndex the writer expected>-<8 hex>`: each entry is a new variable,
 * never rewritten, and the index in its name lets a later fold tell entries no head can point to again.
 */
export const journalEntryPath = (statePath: string, id: string) => `${journalPrefix(statePath)}${id}`;

export function parseJournalEntryPath(statePath: string, path: string): { id: string; baseIndex: number } | undefined {
  const prefix = journalPrefix(statePath);
  if (!path.startsWith(prefix)) return undefined;
  const m = /^(\d+)-[0-9a-f]{8}$/.exec(path.slice(prefix.length));
  return m ? { id: path.slice(prefix.length), baseIndex: Number(m[1]) } : undefined;
}
