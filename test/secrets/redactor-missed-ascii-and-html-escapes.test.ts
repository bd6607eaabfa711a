import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/secrets/redactor.js';

/*
 * Regression: the redactor knew the raw, base64, URL and JSON forms of a secret, but not
 * ASCII-only JSON (`é` → `\u00e9`, as Ruby, Rails and Python write it), HTML-escaped text (`&amp;`,
 * `&#39;`, `&#34;`, `&quot;`, `&#x27;`), a multi-line key reflowed onto one line, or the escaping of a
 * GitHub annotation (`%25`, `%0A`).
 */
const SECRET = `Zq81-&<>"'\\ é+/=%`;
const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n';

function redactor(): Redactor {
  const r = new Redactor();
  r.add(SECRET);
  r.add(PEM);
  return r;
}

describe('the redactor missed ASCII-escaped and HTML-escaped forms', () => {
  it('masks ASCII-only JSON (non-ASCII and &<> as \\uXXXX), with and without escaped slashes', () => {
    const ascii = JSON.stringify(SECRET).slice(1, -1).replace(/[^\x20-\x7e]|[&<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(ascii).toContain('\\u00e9');
    expect(redactor().redact(`{"value":"${ascii}"}`)).toBe('{"value":"***"}');
    expect(redactor().redact(`{"value":"${ascii.replace(/\//g, '\\/')}"}`)).toBe('{"value":"***"}');
    // ...and that JSON quoted once more inside converge's own --json output.
    expect(redactor().redact(JSON.stringify(`x ${ascii} y`))).toBe('"x *** y"');
  });

  it.each([
    ['Go html.EscapeString', { '"': '&#34;', "'": '&#39;' }],
    ['Rails ERB::Util.html_escape', { '"': '&quot;', "'": '&#39;' }],
    ['Python html.escape', { '"': '&quot;', "'": '&#x27;' }],
  ])('masks the secret HTML-escaped as %s does', (_name, quotes: Record<string, string>) => {
    const html = SECRET.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/["']/g, (c) => quotes[c] ?? c);
    expect(redactor().redact(`Value &quot;${html}&quot; is invalid`)).toBe('Value &quot;***&quot; is invalid');
  });

  it('masks a PEM key whose lines were joined by spaces', () => {
    expect(redactor().redact(`bad key: ${PEM.replace(/\s+/g, ' ').trim()} (line 3)`)).toBe('bad key: *** (line 3)');
  });

  it('masks the secret and a PEM key as a GitHub annotation escapes them (%25, %0A)', () => {
    const escape = (t: string) => t.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
    expect(redactor().redact(`::error::bad ${escape(SECRET)} and ${escape(PEM)}`)).toBe('::error::bad *** and ***');
  });

  it('leaves ordinary text with entities and escapes alone', () => {
    expect(redactor().redact('a &amp; b \\u00e9 &#39;x&#39;')).toBe('a &amp; b \\u00e9 &#39;x&#39;');
  });
});
