import { createHash, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DigestBook, DIGEST_PREFIX, legacyDigest, legacyDigestsIn, secretDigest } from '../../src/secrets/digest.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { createSecretResolver } from '../../src/secrets/resolver.js';

/*
 * Regression: a state held one salted SHA-256 per secret with the salt beside it, so a
 * weak secret fell to a word list in milliseconds. Digests are now scrypt (N=4096, r=8, p=1).
 */
const SALT = '9f1c2a7b3e4d5c6f8a9b0c1d2e3f4a5b';
const VALUE = 'hunter2-password';

describe('state digests were plain salted SHA-256', () => {
  it('has a versioned format naming its parameters', () => {
    expect(DIGEST_PREFIX).toBe('scrypt:N=4096,r=8,p=1:');
    expect(secretDigest(SALT, VALUE)).toMatch(/^scrypt:N=4096,r=8,p=1:[0-9a-f]{64}$/);
  });

  it('is scrypt of the value under the state salt, not any SHA-256 of it', () => {
    const d = secretDigest(SALT, VALUE);
    const hex = d.slice(DIGEST_PREFIX.length);
    const expected = scryptSync(VALUE, `converge secret digest v1\0${SALT}`, 32, { N: 4096, r: 8, p: 1 }).toString('hex');
    expect(hex).toBe(expected);
    const sha = (...parts: string[]) => createHash('sha256').update(parts.join('')).digest('hex');
    for (const plain of [sha(VALUE), sha(SALT, VALUE), sha(SALT, '\0', VALUE), sha(VALUE, SALT)]) expect(hex).not.toBe(plain);
  });

  it('is stable for one salt and differs between salts and values', () => {
    expect(secretDigest(SALT, VALUE)).toBe(secretDigest(SALT, VALUE));
    expect(secretDigest(SALT, VALUE)).not.toBe(secretDigest(SALT.replace('9', '8'), VALUE));
    expect(secretDigest(SALT, VALUE)).not.toBe(secretDigest(SALT, `${VALUE}!`));
  });

  it('the resolver answers the new digest, or the legacy one a state still holds for that value', () => {
    const opts = { env: {}, redactor: new Redactor(), salt: SALT };
    expect(createSecretResolver(opts).digest(VALUE)).toBe(secretDigest(SALT, VALUE));
    const legacy = legacyDigest(SALT, VALUE);
    expect(legacy).toBe(`sha256:${createHash('sha256').update(SALT).update('\0').update(VALUE).digest('hex')}`);
    const onOldState = createSecretResolver({ ...opts, legacyDigests: legacyDigestsIn([{ secretDigests: { 'config.secret': legacy } }]) });
    expect(onOldState.digest(VALUE)).toBe(legacy);
    // Another value on that old state is not one of its legacy digests: it gets the new form.
    expect(onOldState.digest('other-value')).toBe(secretDigest(SALT, 'other-value'));
  });

  it('a digest book derives each value once and upgrades the legacy digests of values it has seen', () => {
    const book = new DigestBook();
    const first = book.digest(SALT, VALUE);
    expect(book.digest(SALT, VALUE)).toEqual(first);
    expect(book.upgrade(legacyDigest(SALT, VALUE))).toBe(secretDigest(SALT, VALUE));
    const unseen = legacyDigest(SALT, 'never-resolved');
    expect(book.upgradeAll({ a: legacyDigest(SALT, VALUE), b: unseen, c: first.current })).toEqual({ a: first.current, b: unseen, c: first.current });
  });
});
