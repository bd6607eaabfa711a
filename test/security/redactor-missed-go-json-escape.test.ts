import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/secrets/redactor.js';

/*
 * Regression: a server echoing a request in a Go-encoded JSON error body writes `&` as `\u0026`
 * (encoding/json HTMLEscape); the redactor knew only the raw, base64 and JavaScript-JSON forms, so
 * `converge apply` printed a sensitive variable containing `&` from a 422 body (test/security/canaries).
 */
const SECRET = 'db/pass+M2n4 Tq74=&x<y>\u2028z';
const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n';

function redactor(): Redactor {
  const r = new Redactor();
  r.add(SECRET);
  r.add(PEM);
  return r;
}

describe('the redactor missed the Go JSON escape form', () => {
  it('masks the secret as Go encoding/json escapes it in an error body', () => {
    const body = JSON.stringify({ value: SECRET }).replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/\u2028/g, '\\u2028');
    expect(body).toContain('\\u0026');
    expect(redactor().redact(`422: ${body}`)).toBe('422: {"value":"***"}');
  });

  it('masks URL-encoded and form-encoded forms', () => {
    const r = redactor();
    expect(r.redact(`?p=${encodeURIComponent(SECRET)}`)).toBe('?p=***');
    expect(r.redact(`p=${encodeURIComponent(SECRET).replace(/%20/g, '+')}`)).toBe('p=***');
  });

  it('masks base64 and base64url forms', () => {
    const r = redactor();
    expect(r.redact(Buffer.from(SECRET).toString('base64'))).toBe('***');
    expect(r.redact(Buffer.from(SECRET).toString('base64url'))).toBe('***');
  });

  it('masks a JSON error body quoted inside JSON output (escaped twice), PEM newlines included', () => {
    const inner = JSON.stringify({ pemKey: PEM, value: SECRET });
    const outer = JSON.stringify({ message: `Nomad answered 422: ${inner}` });
    const out = redactor().redact(outer);
    expect(out).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
    expect(out).not.toContain('Tq74');
    expect(JSON.parse(out)).toEqual({ message: 'Nomad answered 422: {"pemKey":"***","value":"***"}' });
  });

  it('leaves ordinary text alone', () => {
    expect(redactor().redact('plan: 1 to create & 0 to delete')).toBe('plan: 1 to create & 0 to delete');
  });
});
