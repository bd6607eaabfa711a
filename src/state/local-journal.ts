import { addressKey } from '../model/kinds.js';
import { byKindThenName, corruptState, recordProblem, sentCreateProblem } from './state-document.js';
import type { SentCreate, StateChange, StateDocument, StateRecord } from './types.js';

/*
 * The local backend's journal, `<state>.journal` beside the state file: one JSON line per change, appended
 * and fdatasync'd, so a save costs the size of the change instead of a rewrite of the whole state (which
 * made an apply of N objects write O(N²) bytes). The first line names the state it belongs to (its salt)
 * and the snapshot serial it started from; each later line holds the serial the change made. A reader
 * replays the lines whose serial is newer than the snapshot's, in order. A kill or power cut can leave the
 * last line torn (no newline, or a zero-filled tail): that change was never acknowledged, so it is dropped,
 * and the next writer cuts it off before appending. A bad line anywhere else is corruption, reported as such.
 */

export const JOURNAL_FORMAT = 1;

interface JournalHeader {
  journal: typeof JOURNAL_FORMAT;
  salt: string;
  base: number;
}

type JournalEntry =
  | { serial: number; put: StateRecord }
  | { serial: number; remove: { kind: StateRecord['kind']; name: string } }
  | { serial: number; sent: SentCreate }
  | { serial: number; unsent: { kind: StateRecord['kind']; name: string } };

export function journalHeaderLine(salt: string, base: number): string {
  const header: JournalHeader = { journal: JOURNAL_FORMAT, salt, base };
  return JSON.stringify(header) + '\n';
}

export function journalLine(serial: number, change: StateChange): string {
  return JSON.stringify(journalEntry(serial, change)) + '\n';
}

function journalEntry(serial: number, change: StateChange): JournalEntry {
  switch (change.op) {
    case 'put':
      return { serial, put: change.record };
    case 'remove':
      return { serial, remove: { kind: change.kind, name: change.name } };
    case 'sent':
      return { serial, sent: change.create };
    case 'unsent':
      return { serial, unsent: { kind: change.kind, name: change.name } };
  }
}

export interface Replayed {
  doc: StateDocument;
  /** Bytes of the journal that hold whole lines; anything after them is a torn tail to cut off. */
  goodBytes: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAddress = (v: unknown): v is { kind: string; name: string } => isObject(v) && typeof v.kind === 'string' && typeof v.name === 'string';
const parseLine = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
};
/** Only newlines and zero bytes: what a crash leaves after the last whole line. */
const onlyTornTail = (rest: string[]): boolean => rest.every((l) => /^\0*$/.test(l));

/** The snapshot with the journal's newer changes applied, records sorted as the snapshot keeps them. */
export function replayJournal(snapshot: StateDocument, text: string, path: string): Replayed {
  const lines = text.split('\n');
  // The last piece has no newline after it: it is torn (or empty when the file ends with a newline).
  const whole = lines.slice(0, -1);
  const header = parseLine(whole[0] ?? '');
  if (whole.length === 0 || (header === undefined && onlyTornTail(lines))) return { doc: snapshot, goodBytes: 0 };
  if (!isObject(header) || header.journal !== JOURNAL_FORMAT || typeof header.salt !== 'string' || typeof header.base !== 'number') {
    throw corruptState(path, 'line 1 is not a converge journal header');
  }
  if (header.salt !== snapshot.salt) {
    throw corruptState(path, `the journal belongs to another state (its salt differs from ${path.replace(/\.journal$/, '')}'s)`);
  }
  const records = new Map(snapshot.records.map((r) => [addressKey(r), r]));
  const sent = new Map((snapshot.sent ?? []).map((c) => [addressKey(c), c]));
  let serial = snapshot.serial;
  let goodBytes = Buffer.byteLength(whole[0] ?? '') + 1;
  for (let i = 1; i < whole.length; i++) {
    const line = whole[i] ?? '';
    const entry = parseLine(line);
    if (!isObject(entry) || typeof entry.serial !== 'number') {
      if (onlyTornTail(lines.slice(i))) break;
      throw corruptState(path, `line ${i + 1} is not a journal entry`);
    }
    if (entry.serial > serial) {
      if (entry.serial !== serial + 1) throw corruptState(path, `line ${i + 1} has serial ${entry.serial} after ${serial}: a change is missing`);
      if ('put' in entry) {
        const problem = recordProblem(entry.put, `line ${i + 1}`);
        if (problem !== undefined) throw corruptState(path, problem);
        const record = entry.put as StateRecord;
        records.set(addressKey(record), record);
        sent.delete(addressKey(record));
      } else if (isAddress(entry.remove)) {
        records.delete(`${entry.remove.kind}/${entry.remove.name}`);
      } else if (sentCreateProblem(entry.sent, `line ${i + 1}`) === undefined) {
        const create = entry.sent as SentCreate;
        sent.set(addressKey(create), create);
      } else if (isAddress(entry.unsent)) {
        sent.delete(`${entry.unsent.kind}/${entry.unsent.name}`);
      } else {
        throw corruptState(path, `line ${i + 1} is neither a put, a remove, a sent nor an unsent`);
      }
      serial = entry.serial;
    }
    goodBytes += Buffer.byteLength(line) + 1;
  }
  if (serial === snapshot.serial) return { doc: snapshot, goodBytes };
  const { sent: _before, ...rest } = snapshot;
  const creates = [...sent.values()];
  return { doc: { ...rest, serial, records: [...records.values()].sort(byKindThenName), ...(creates.length > 0 ? { sent: creates } : {}) }, goodBytes };
}
