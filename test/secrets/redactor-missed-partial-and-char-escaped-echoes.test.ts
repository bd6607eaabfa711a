import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/secrets/redactor.js';

/*
 * Regression: a server error echoing a client secret or a token leaked it to stderr, stdout and
 * `apply --json` when the echo was JSON-escaped by Python's json.dumps (ASCII-only, `&<>` left as is),
 * cut by the server (70 % of it), numerically HTML-escaped (`&#45;`, `&#x2d;`), wrapped over lines in a
 * 500 body, upper-cased, hex- or percent-encoded, or cut in a web page's title. The redactor knew only
 * whole forms. It now decodes the common escapes, drops whitespace, folds case, and masks any run of 8 or
 * more characters of a secret.
 */
const SECRET = 'Zq81-pr0d-Sécret&<x>-9f3Kq7';
const TOKEN = '3f9c2a1e-7b4d-4e8f-9a0b-1c2d3e4f5a6b';

function redactor(): Redactor {
  const r = new Redactor();
  r.add(SECRET);
  r.add(TOKEN);
  return r;
}

/** No 8 characters of the secret in a row survive, in any case, whitespace dropped. */
function leaks(out: string, secret: string): string[] {
  const flat = out.replace(/\s+/g, '').toLowerCase();
  const s = secret.toLowerCase();
  const found: string[] = [];
  for (let i = 0; i + 8 <= s.length; i++) if (flat.includes(s.slice(i, i + 8))) found.push(s.slice(i, i + 8));
  return found;
}

const pythonJsonDumps = (s: string) => JSON.stringify(s).slice(1, -1).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('the redactor missed partial, wrapped, case-changed and character-escaped echoes', () => {
  it.each([
    ["Python json.dumps (ASCII-only, &<> as is)", `{"detail": "invalid client_secret \\"${pythonJsonDumps(SECRET)}\\""}`],
    ['cut to 70 % by the server', `500: invalid secret ${SECRET.slice(0, Math.ceil(SECRET.length * 0.7))}... (truncated)`],
    ['numeric HTML entities, decimal', `<p>bad value ${[...SECRET].map((c) => `&#${c.codePointAt(0)};`).join('')}</p>`],
    ['numeric HTML entities, hexadecimal', `<p>bad value ${[...SECRET].map((c) => (/[a-z0-9]/i.test(c) ? c : `&#x${(c.codePointAt(0) as number).toString(16)};`)).join('')}</p>`],
    ['wrapped over lines in a 500 body', `Internal error\n${SECRET.slice(0, 10)}\n${SECRET.slice(10, 20)}\n  ${SECRET.slice(20)}\n`],
    ['upper-cased', `ERROR: BAD SECRET ${SECRET.toUpperCase()}`],
    ['hex-encoded', `digest mismatch for ${Buffer.from(SECRET).toString('hex')}`],
    ['percent-encoded, every byte', `GET /cb?s=${[...Buffer.from(SECRET)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')}`],
    ['cut in a web page title', `<html><head><title>Unauthorized: ${SECRET.slice(0, 12)}…</title></head></html>`],
    ['a token cut and upper-cased', `token ${TOKEN.slice(0, 24).toUpperCase()} rejected`],
  ])('masks the secret %s', (_how, echo) => {
    const out = redactor().redact(echo);
    expect(out).toContain('***');
    expect(leaks(out, SECRET)).toEqual([]);
    expect(leaks(out, TOKEN)).toEqual([]);
  });

  it('keeps the text around a masked run', () => {
    expect(redactor().redact(`500: invalid secret ${SECRET.slice(0, 19)}... (truncated)`)).toBe('500: invalid secret ***... (truncated)');
    expect(redactor().redact(`ERROR: ${SECRET.toUpperCase()} IS WRONG`)).toBe('ERROR: *** IS WRONG');
  });

  it('leaves ordinary text, and runs shorter than 8 characters, alone', () => {
    const text = 'plan: 1 to create & 0 to delete; Zq81-pr and &#45; \\u00e9 %2D stay';
    expect(redactor().redact(text)).toBe(text);
  });
});
