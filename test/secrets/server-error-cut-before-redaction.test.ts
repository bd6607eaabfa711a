import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from '../e2e/harness.js';
import { startEchoProxy, type EchoProxy, type WriteAnswer } from '../security/echo-proxy.js';
import { SECRET_WORKSPACE, secretAuthMethods } from '../security/fixtures.js';

/*
 * Regression: Nomad error bodies were cut at 600 characters and whitespace-collapsed
 * before the output's redactor saw them, so a client secret across the cut printed its first part and
 * a PEM key echoed over many lines printed whole, its lines joined by spaces. An HCP Terraform 422
 * whose detail echoed a value ASCII-escaped (`\u00e9`, `\u0026`) or HTML-escaped (`&amp;`, `&#39;`)
 * printed it whole. Built CLI against the sandbox, behind proxies that answer writes with such bodies.
 */

// Every character that some escaper rewrites: JSON, Go's HTMLEscape, ASCII-only JSON, HTML, URL, base64.
const TAIL = `&<>"'\\ é+/=%`;
// The distinctive part first, so a cut just after the start of the secret still leaves it visible.
const CLIENT_SECRET = `Zq81Lm9Xv-oidc${TAIL}`;
const DB_PASSWORD = `Wk27Pd4Hs-vars${TAIL}`;
const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PEM_LINES = PEM.split('\n').filter((l) => l.length >= 40 && !l.startsWith('-----'));

/** Nomad plain-text 400s: the client secret placed across the 600th character; the PEM key as sent, over its lines. */
const nomadAnswer: WriteAnswer = ({ body }) => {
  if (body.includes(JSON.stringify(CLIENT_SECRET).slice(1, -1))) {
    const head = `invalid auth method okta: OIDCClientSecret rejected by policy ${'x'.repeat(520)} value `;
    const text = head.padEnd(590, '.') + CLIENT_SECRET;
    return { status: 400, contentType: 'text/plain', text };
  }
  if (body.includes('PRIVATE KEY')) return { status: 400, contentType: 'text/plain', text: `invalid private key for azure:\n${PEM}\ndoes not match key-1` };
  return undefined;
};

const asciiJson = (s: string): string =>
  JSON.stringify(s)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]|[&<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const goHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');

/** HCP Terraform 422s whose detail echoes the variable's value ASCII-escaped, then HTML-escaped. */
const tfeAnswer: WriteAnswer = ({ body }) => {
  if (!body.includes('Wk27Pd4Hs')) return undefined;
  const errors = [
    { status: '422', title: 'invalid attribute', detail: `Value {"value":"${asciiJson(DB_PASSWORD)}"} is invalid`, source: { pointer: '/data/attributes/value' } },
    { status: '422', title: 'invalid attribute', detail: `Value &quot;${goHtml(DB_PASSWORD)}&quot; is invalid`, source: { pointer: '/data/attributes/value' } },
  ];
  return { status: 422, contentType: 'application/vnd.api+json', text: JSON.stringify({ errors }) };
};

function fragments(text: string): string[] {
  const found: string[] = [];
  for (const f of ['Zq81Lm9Xv', 'Wk27Pd4Hs', 'Rb63Tn8Qc', 'Jf45Gd18']) if (text.includes(f)) found.push(f);
  // Any 16 characters of a key line: a key cut or reflowed leaks in pieces.
  for (const line of PEM_LINES) for (let i = 0; i + 16 <= line.length; i += 8) if (text.includes(line.slice(i, i + 16))) found.push(`pem line ${line.slice(0, 8)}…`);
  return [...new Set(found)];
}

/** A reply that is not JSON (a proxy's page), echoing the client secret across the 40 characters an error quotes. */
const notJsonAnswer: WriteAnswer = ({ body }) =>
  body.includes(JSON.stringify(CLIENT_SECRET).slice(1, -1)) ? { status: 200, contentType: 'text/html', text: `<html><body>saved ${'-'.repeat(5)} ${CLIENT_SECRET}</body></html>` } : undefined;

let nomadAnswerNow: WriteAnswer = nomadAnswer;
let ws: Workspace;
let nomadProxy: EchoProxy;
let tfeProxy: EchoProxy;

beforeAll(async () => {
  ws = await openWorkspace({ env: { OKTA_CLIENT_SECRET: CLIENT_SECRET, VPC_DB_PASSWORD: DB_PASSWORD } });
  await ws.write('settings.yaml', 'kind: Settings\nname: default\nspec:\n  tfe: { organization: acme }\n');
  await ws.write('nomad.yaml', secretAuthMethods());
  await ws.write('tfe.yaml', SECRET_WORKSPACE);
  await ws.write('secrets/signing-key.pem', PEM);
  await ws.write('secrets/azure-secret.txt', 'Rb63Tn8Qc-azure-file');
  await ws.write('secrets/api-key.txt', 'Jf45Gd18-api-key');
  nomadProxy = await startEchoProxy(ws.sandbox.env.NOMAD_ADDR ?? '', 'nomad', { answer: (w) => nomadAnswerNow(w) });
  tfeProxy = await startEchoProxy(ws.sandbox.env.TFE_ADDRESS ?? '', 'tfe', { answer: tfeAnswer });
});

afterAll(async () => {
  await Promise.allSettled([nomadProxy?.stop(), tfeProxy?.stop()]);
  await ws?.close();
});

describe('server error bodies are redacted before they are cut or reflowed', () => {
  for (const format of [[], ['--json']]) {
    it(`apply ${format.join(' ') || '(text)'}: the echoing 400s and 422s print no part of a secret`, async () => {
      const r = await ws.cli(['apply', '--auto-approve', '--poll-interval', '20ms', ...format], { NOMAD_ADDR: nomadProxy.url, TFE_ADDRESS: tfeProxy.url, GITHUB_ACTIONS: 'true' });
      const out = r.stdout + r.stderr;
      expect(r.code, out).toBe(1);
      expect(fragments(out)).toEqual([]);
      // The servers did answer with the secrets, and converge did print their errors.
      expect(nomadProxy.echoed.length).toBeGreaterThanOrEqual(2);
      expect(tfeProxy.echoed.length).toBeGreaterThanOrEqual(1);
      expect(out).toContain('OIDCClientSecret rejected by policy');
      expect(out).toContain('invalid private key for azure');
      expect(out).toMatch(/Value \{\\*"value\\*":\\*"\*\*\*\\*"\} is invalid/);
    });
  }

  it('a reply that is not JSON is not quoted at all: it names the address to check, and no part of a secret', async () => {
    nomadAnswerNow = notJsonAnswer;
    const r = await ws.cli(['apply', '--auto-approve', '--poll-interval', '20ms'], { NOMAD_ADDR: nomadProxy.url, TFE_ADDRESS: tfeProxy.url });
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(1);
    expect(fragments(out)).toEqual([]);
    // Someone else's page (a proxy's, another service's) is not quoted: the message asks about NOMAD_ADDR.
    expect(out).toContain('is NOMAD_ADDR right?');
  });
});
