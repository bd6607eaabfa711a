import { createHash } from 'node:crypto';

/**
 * Nomad's Hash is BLAKE2b-256 over the user-set fields, written as padded standard base64 (see
 * docs/reference/nomad-api.md §1.2). node:crypto only offers BLAKE2b-512, so the sandbox takes its first 32 bytes: the
 * same length and encoding, but not the same bytes as a real server. Clients must treat Hash as opaque
 * (the real one is not even stable: it walks Go maps in random order, docs/reference/nomad-api.md §12).
 */
export function hashParts(parts: readonly string[]): string {
  const h = createHash('blake2b512');
  for (const p of parts) h.update(p, 'utf8');
  return h.digest().subarray(0, 32).toString('base64');
}

/** Puts map keys in the order a hash walks them. */
export type MapOrder = (keys: string[]) => string[];

/** The default: sorted, so equal content always gives an equal Hash here (unlike Go, see above). */
export const sortedOrder: MapOrder = (keys) => [...keys].sort();

/**
 * Go's map order, for `randomMapOrder`: a seeded shuffle, so the same content can hash differently from
 * one write to the next, as on a real server (docs/reference/nomad-api.md §12). Clients must cope with that.
 */
export function shuffledOrder(random: () => number): MapOrder {
  return (keys) => {
    const out = [...keys];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j] as string, out[i] as string];
    }
    return out;
  };
}

export function mapParts(m: Record<string, string> | null, order: MapOrder = sortedOrder): string[] {
  if (!m) return [];
  return order(Object.keys(m)).flatMap((k) => [k, m[k] ?? '']);
}
