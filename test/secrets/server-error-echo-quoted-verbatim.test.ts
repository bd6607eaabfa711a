import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from '../e2e/harness.js';
import { OKTA_METHOD } from '../e2e/manifests.js';
import { startEchoProxy, type EchoProxy, type WriteAnswer } from '../security/echo-proxy.js';
import { SECRET_WORKSPACE } from '../security/fixtures.js';

/*
 * Regression: a server's error body was quoted whole (HCP Terraform's `detail`) or up to 600 characters
 * (Nomad) even when the request that failed carried a secret (a client secret, a sensitive variable, the
 * token), so any form of the secret the redactor could not know was printed, and everything else the server
 * chose to echo with it. Now such an error shows the status, the service's error code or title, and a short
 * excerpt with every secret masked. Built CLI against the sandbox, behind loopback proxies that answer the
 * auth-method write and the workspace create with errors echoing every secret the request carried, in the
 * forms careless servers use.
 */
const CLIENT_SECRET = 'Zq81-pr0d-Sécret&<x>-9f3Kq7';
const DB_PASSWORD = 'Wk27-vars-Pässwort&<y>-4Hs8Tq';
const API_KEY = 'Jf45Gd18-api-key-Rt62';
/** Past any excerpt: printed only when the body is quoted verbatim. */
const TAIL = 'TAIL-OF-THE-BODY';
const FILLER = ` (request 7d1e; details follow: ${'the value was refused by the validation layer; '.repeat(8)}${TAIL})`;

/** Python's json.dumps: ASCII only (`\u00e9`), `&<>` left as they are. */
const pyDumps = (v: unknown): string => JSON.stringify(v).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

interface Form {
  name: string;
  status: number;
  /** How the echo of one secret is written. */
  echo: (secret: string) => string;
  /** The whole body is a web page (its `<title>` holds the echo), or Python-made JSON. */
  body?: 'page' | 'python';
}

const FORMS: Form[] = [
  { name: "Python json.dumps (ASCII escapes, &<> as is)", status: 400, echo: (s) => s, body: 'python' },
  { name: 'truncated to 70 %', status: 400, echo: (s) => `${s.slice(0, Math.ceil(s.length * 0.7))}... (truncated)` },
  { name: 'HTML numeric escapes (&#45;)', status: 400, echo: (s) => [...s].map((c) => `&#${c.codePointAt(0)};`).join('') },
  { name: 'line-wrapped inside a 500', status: 500, echo: (s) => `\n${s.slice(0, 10)}\n${s.slice(10, 20)}\n  ${s.slice(20)}\n` },
  { name: 'upper-cased', status: 400, echo: (s) => s.toUpperCase() },
  { name: 'hex', status: 400, echo: (s) => Buffer.from(s).toString('hex') },
  { name: 'percent-encoded', status: 400, echo: (s) => [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('') },
  { name: 'inside an HTML <title>', status: 400, echo: (s) => s.slice(0, 16), body: 'page' },
];

let form: Form = FORMS[0] as Form;

/** The error body of the current form, echoing each secret the request carried. */
function answer(style: 'nomad' | 'tfe', secrets: string[]): ReturnType<WriteAnswer> {
  const echoes = secrets.map((s) => form.echo(s)).join(' and ');
  const headers = form.status >= 500 ? { 'retry-after': '0' } : undefined;
  if (form.body === 'page') {
    return { status: form.status, contentType: 'text/html', text: `<html><head><title>Unauthorized: ${echoes}</title></head><body>${FILLER}</body></html>` };
  }
  const text = `invalid value ${echoes}${FILLER}`;
  if (style === 'nomad') {
    return form.body === 'python'
      ? { status: form.status, contentType: 'application/json', text: pyDumps({ error: 'invalid_request', detail: text }), ...(headers ? { headers } : {}) }
      : { status: form.status, contentType: 'text/plain', text, ...(headers ? { headers } : {}) };
  }
  const doc = { errors: [{ status: String(form.status), code: 'invalid-value', title: 'invalid attribute', detail: text, source: { pointer: '/data/relationships/vars/data/1/attributes/value' } }] };
  return { status: form.status, contentType: 'application/vnd.api+json', text: form.body === 'python' ? pyDumps(doc) : JSON.stringify(doc), ...(headers ? { headers } : {}) };
}

let ws: Workspace;
let nomadProxy: EchoProxy;
let tfeProxy: EchoProxy;
let secrets: string[];

beforeAll(async () => {
  ws = await openWorkspace({ env: { OKTA_CLIENT_SECRET: CLIENT_SECRET, VPC_DB_PASSWORD: DB_PASSWORD } });
  secrets = [CLIENT_SECRET, DB_PASSWORD, API_KEY, ws.env.NOMAD_TOKEN as string, ws.env.TFE_TOKEN as string];
  await ws.write('settings.yaml', 'kind: Settings\nname: default\nspec:\n  tfe: { organization: acme }\n');
  await ws.write('nomad.yaml', OKTA_METHOD);
  await ws.write('tfe.yaml', SECRET_WORKSPACE);
  await ws.write('secrets/api-key.txt', API_KEY);
  nomadProxy = await startEchoProxy(ws.env.NOMAD_ADDR as string, 'nomad', {
    answer: ({ url }) => (url.startsWith('/v1/acl/auth-method/') ? answer('nomad', [CLIENT_SECRET, ws.env.NOMAD_TOKEN as string]) : undefined),
  });
  tfeProxy = await startEchoProxy(ws.env.TFE_ADDRESS as string, 'tfe', {
    answer: ({ method, url }) => (method === 'POST' && /\/no-code-modules\/[^/]+\/workspaces$/.test(url) ? answer('tfe', [DB_PASSWORD, API_KEY, ws.env.TFE_TOKEN as string]) : undefined),
  });
  const saved = await ws.cli(['plan', '--out', 'saved.plan'], { NOMAD_ADDR: nomadProxy.url, TFE_ADDRESS: tfeProxy.url });
  expect(saved.code, saved.stderr).toBe(0);
});

afterAll(async () => {
  await Promise.allSettled([nomadProxy?.stop(), tfeProxy?.stop()]);
  await ws?.close();
});

/** The text as a reader could decode it: entities, `\uXXXX`, backslash escapes and %XX undone, whitespace dropped, case folded. */
function decoded(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\(["\\/])/g, '$1')
    .replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\s+/g, '')
    .toLowerCase();
}

/** Every run of 8 characters of a secret (or of its hex form) found in the text, as written or decoded. */
function leaks(text: string): string[] {
  const found = new Set<string>();
  const views = [text.replace(/\s+/g, '').toLowerCase(), decoded(text)];
  for (const secret of secrets) {
    for (const form of [secret.toLowerCase(), Buffer.from(secret).toString('hex')]) {
      for (let i = 0; i + 8 <= form.length; i++) if (views.some((v) => v.includes(form.slice(i, i + 8)))) found.add(form.slice(i, i + 8));
    }
  }
  return [...found];
}

describe('a server error echoing a secret the request carried is never quoted verbatim', () => {
  for (const f of FORMS) {
    for (const format of [[], ['--json']]) {
      it(`${f.name}, apply ${format.join(' ') || '(text)'}: status and code shown, 0 bytes of any secret`, async () => {
        form = f;
        const before = nomadProxy.echoed.length + tfeProxy.echoed.length;
        const r = await ws.cli(['apply', '--auto-approve', '--poll-interval', '20ms', ...format], { NOMAD_ADDR: nomadProxy.url, TFE_ADDRESS: tfeProxy.url });
        const out = r.stdout + r.stderr;
        expect(r.code, out).toBe(1);
        // Both servers did echo the secrets.
        expect(nomadProxy.echoed.length + tfeProxy.echoed.length).toBeGreaterThan(before + 1);
        expect(leaks(out)).toEqual([]);
        expect(out).not.toContain(TAIL);
        if (f.body === 'page') {
          expect(out).toContain('with a web page (HTTP 400');
        } else {
          // The status, and the service's code where its JSON has one.
          expect(out).toMatch(new RegExp(`Nomad (rejected|answered) [^\\n]*\\b${f.status}\\b`));
          expect(out).toMatch(new RegExp(`HCP Terraform [^\\n]*\\b${f.status} invalid-value\\b`));
          if (f.body === 'python') expect(out).toContain(`${f.status} invalid_request`);
        }
      });
    }
  }

  it('the state and the saved plan hold 0 bytes of any secret', async () => {
    const files: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true })) {
        // secrets/ holds the API key's own file, which the manifests read.
        if (!e.isDirectory()) files.push(join(dir, e.name));
        else if (e.name !== 'secrets') await walk(join(dir, e.name));
      }
    };
    await walk(ws.dir);
    expect(files.some((f) => f.endsWith('saved.plan'))).toBe(true);
    expect(files.some((f) => f.includes('.converge'))).toBe(true);
    for (const file of files) expect(leaks(await readFile(file, 'utf8')), file).toEqual([]);
  });
});
