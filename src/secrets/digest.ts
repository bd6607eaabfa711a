import { createHash, scryptSync } from 'node:crypto';

/*
 * Digests of secret values, as kept in state records and saved plans (docs/decisions.md, "Secret digests
 * are scrypt").
 *
 * A digest must show that a secret changed without letting anyone who reads the state guess it.
 * One salted SHA-256 (the first format) costs an attacker microseconds per guess, so a weak
 * password falls to a word list at once. scrypt (RFC 7914, Node's built-in) makes every guess cost
 * the same time and memory as one of our digests; a plan computes one per distinct secret value
 * (cached per process), so the parameters are a trade between that cost and the attacker's.
 */

/** scrypt cost: N = 2^12 (4 MiB of memory per derivation with r = 8), one lane, 32-byte output. */
export const DIGEST_PARAMS = { N: 4096, r: 8, p: 1, keylen: 32 } as const;

/** The digest format: `scrypt:N=4096,r=8,p=1:<64 hex>`; the parameters are part of the text, so a later change is visible. */
export const DIGEST_PREFIX = `scrypt:N=${DIGEST_PARAMS.N},r=${DIGEST_PARAMS.r},p=${DIGEST_PARAMS.p}:`;

/** Keeps these digests apart from any other use of the same salt. */
const DOMAIN = 'converge secret digest v1\0';

/** The current digest of `value` under a state's salt. Slow on purpose (milliseconds); see DigestBook for the cache. */
export function secretDigest(salt: string, value: string): string {
  const { N, r, p, keylen } = DIGEST_PARAMS;
  // maxmem: the 128 × N × r bytes scrypt needs plus slack; Node's default (32 MiB) would do, this says why.
  const key = scryptSync(value, DOMAIN + salt, keylen, { N, r, p, maxmem: 128 * N * r * 2 });
  return DIGEST_PREFIX + key.toString('hex');
}

/** The first format, salted SHA-256: still read from states written before scrypt, never written any more. */
export function legacyDigest(salt: string, value: string): string {
  return 'sha256:' + createHash('sha256').update(salt).update('\0').update(value).digest('hex');
}

export const isLegacyDigest = (digest: string): boolean => digest.startsWith('sha256:');

/** The legacy digests a state still holds (its records' `secretDigests`). */
export function legacyDigestsIn(records: Iterable<{ secretDigests: Record<string, string> }>): Set<string> {
  const out = new Set<string>();
  for (const r of records) for (const d of Object.values(r.secretDigests)) if (isLegacyDigest(d)) out.add(d);
  return out;
}

/**
 * The process's digests, keyed by the value's legacy digest (cheap, and it keeps no secret value as a
 * key). It serves two purposes: a value is derived once per process however often a plan, its
 * staleness check and the apply ask; and a legacy digest found in a state can be rewritten in the
 * current format when the state is written (`upgrade`), once this process has seen its value.
 */
export class DigestBook {
  private readonly byLegacy = new Map<string, string>();

  /** Current digest of `value`, derived at most once per (salt, value). */
  digest(salt: string, value: string): { current: string; legacy: string } {
    const legacy = legacyDigest(salt, value);
    let current = this.byLegacy.get(legacy);
    if (current === undefined) {
      current = secretDigest(salt, value);
      this.byLegacy.set(legacy, current);
    }
    return { current, legacy };
  }

  /** `digest` in the current format when it is a legacy digest of a value seen in this process; otherwise as is. */
  upgrade(digest: string): string {
    return isLegacyDigest(digest) ? (this.byLegacy.get(digest) ?? digest) : digest;
  }

  /** A record's digests with every one this process can upgrade upgraded. */
  upgradeAll(digests: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [path, d] of Object.entries(digests)) out[path] = this.upgrade(d);
    return out;
  }
}
