import { describe, expect, it } from 'vitest';
import { EXCERPT_CHARS, carriesSecret, serverErrorCode, serverExcerpt } from '../../src/http/server-excerpt.js';
import { redactorOf } from '../../src/secrets/redactor.js';

/*
 * What a message quotes of a server's error body when the request carried a secret: a short excerpt,
 * masked before it is cut and again after markup is dropped; the service's code only when it holds no secret.
 */
const SECRET = 'Zq81-pr0d-Sécret-9f3Kq7';
const redact = redactorOf(SECRET);

describe('the excerpt of a server error body', () => {
  it('a request carrying a secret gets at most EXCERPT_CHARS on one line; one carrying none keeps the lines', () => {
    const body = `line one\n\tline two ${'words '.repeat(100)}END`;
    const short = serverExcerpt(body, redact, true);
    expect(short.length).toBeLessThanOrEqual(EXCERPT_CHARS + 1);
    expect(short).toMatch(/^line one line two words .*…$/);
    expect(short).not.toContain('END');
    expect(serverExcerpt(body, redact, false)).toContain('line one\n\tline two');
  });

  it('a secret split by markup is masked once the markup is gone', () => {
    // No piece holds 8 characters of it: only the text without its tags does.
    const pieces = SECRET.match(/.{1,4}/gu) ?? [];
    const out = serverExcerpt(`<p>bad: ${pieces.map((p) => `<b>${p}</b>`).join('')}</p>`, redact, true);
    expect(out).toBe('bad: ***');
  });

  it('the code is the JSON:API code, else the title, else OAuth error; never when it holds a secret or is long', () => {
    expect(serverErrorCode(JSON.stringify({ errors: [{ code: 'invalid-value', title: 'invalid attribute' }] }), redact)).toBe('invalid-value');
    expect(serverErrorCode(JSON.stringify({ errors: [{ title: 'invalid attribute' }] }), redact)).toBe('invalid attribute');
    expect(serverErrorCode(JSON.stringify({ error: 'invalid_client' }), redact)).toBe('invalid_client');
    expect(serverErrorCode(JSON.stringify({ error: `bad ${SECRET}` }), redact)).toBeUndefined();
    expect(serverErrorCode(JSON.stringify({ error: 'x'.repeat(80) }), redact)).toBeUndefined();
    expect(serverErrorCode('Permission denied', redact)).toBeUndefined();
  });

  it('a request carries a secret when a header or its body holds one', () => {
    expect(carriesSecret([JSON.stringify({ OIDCClientSecret: SECRET })], redact)).toBe(true);
    expect(carriesSecret([JSON.stringify({ Name: 'okta' }), undefined], redact)).toBe(false);
  });
});
