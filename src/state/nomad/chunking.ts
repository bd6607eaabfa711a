import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConvergeError } from '../../diagnostics/errors.js';

/*
 * One Nomad variable holds at most 64 KiB of keys plus values (docs/reference/nomad-api.md §9), so the
 * state is gzip-compressed, base64-encoded (Items are strings) and split across chunk variables.
 */

/**
 * Characters of base64 per chunk variable. The limit counts key and value bytes (65536); base64 is
 * ASCII, so characters are bytes. The margin leaves room for the key name and future small keys.
 */
export const CHUNK_CHARS = 60_000;

export const ENCODING = 'gzip+base64';

export interface EncodedState {
  chunks: string[];
  /** Hex SHA-256 of the uncompressed JSON: the reader checks the reassembled state against it. */
  sha256: string;
  /** Uncompressed size, for messages. */
  bytes: number;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function encodeState(json: string, chunkChars = CHUNK_CHARS): EncodedState {
  const b64 = gzipSync(Buffer.from(json, 'utf8'), { level: 9 }).toString('base64');
  const chunks: string[] = [];
  for (let i = 0; i < b64.length; i += chunkChars) chunks.push(b64.slice(i, i + chunkChars));
  if (chunks.length === 0) chunks.push('');
  return { chunks, sha256: sha256Hex(json), bytes: Buffer.byteLength(json, 'utf8') };
}

/** Reassembles and checks the chunks; a mismatch means a torn or tampered state and is never parsed. */
export function decodeState(chunks: readonly string[], expectedSha256: string, where: string): string {
  let json: string;
  try {
    json = gunzipSync(Buffer.from(chunks.join(''), 'base64')).toString('utf8');
  } catch (e) {
    throw corrupt(where, 'its chunks do not decompress', e);
  }
  if (sha256Hex(json) !== expectedSha256) throw corrupt(where, 'the reassembled state does not match the sha256 in the head variable');
  return json;
}

function corrupt(where: string, why: string, cause?: unknown): ConvergeError {
  return new ConvergeError('state.corrupt', `The state in ${where} is unreadable: ${why}`, {
    source: 'remote',
    ...(cause !== undefined ? { cause } : {}),
    hint: 'someone may have edited the variables by hand; restore them from a backup (nomad var get/put), or remove the head variable to start over and re-import',
  });
}
