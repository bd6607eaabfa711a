import { createHash } from 'node:crypto';

/**
 * Nomad's Hash is BLAKE2b-256 over the user-set fields, written as padded standard base64 (reference
 * nomad-api.md §1.2). node:crypto only offers BLAKE2b-512, so the sandbox takes its first 32 bytes: the
 * same length and encoding, but not the same bytes as a real server. Clients must treat Hash as opaque
 * (the real one is not even stable: it walks Go maps in random order, reference §12).
 */
export function hashParts(parts: readonly string[]): string {
  const h = createHash('blake2b512');
  for (const p of parts) h.update(p, 'utf8');
  return h.digest().subarray(0, 32).toString('base64');
}

/** Map entries in a fixed order, so equal content always gives an equal Hash here (unlike Go, see above). */
export function mapParts(m: Record<string, string> | null): string[] {
  if (!m) return [];
  return Object.keys(m)
    .sort()
    .flatMap((k) => [k, m[k] ?? '']);
}
