import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConvergeError } from '../../diagnostics/errors.js';
import { hasErrors } from '../../diagnostics/types.js';
import { explainLogin, methodNames, readClaimsText, worldFromDesired, worldFromDocuments, type LoginWorld } from '../../login/index.js';
import { loadForRun, loadValid } from '../../operations/connect.js';
import type { Settings } from '../../model/desired.js';
import { didYouMean } from '../../diagnostics/suggest.js';
import { exportObjects } from '../../operations/export.js';
import { renderDiagnosticsText } from '../../views/diagnostics.js';
import { loginExplanationJson, renderLoginMarkdown, renderLoginText, type ExplainContext } from '../../views/login-explain.js';
import { EXIT, type Host } from '../host.js';

export interface LoginExplainOptions {
  method: string;
  claims: string;
  json?: boolean;
  markdown?: boolean;
  live?: boolean;
}

const NOMAD_ACL_KINDS = ['NomadAclPolicy', 'NomadAclRole', 'NomadAuthMethod', 'NomadBindingRule'];

/** What Nomad holds now, read as `converge export` reads it (reads only). */
async function liveWorld(host: Host, paths: string[], method: string): Promise<{ world?: LoginWorld; names: string[]; where: string } | undefined> {
  // With --env, the environment's Nomad: its address comes from the Settings document among the paths.
  let settings: Settings | undefined;
  if (host.environment !== undefined) {
    const loaded = await loadValid(host, paths, { secrets: false });
    if (!loaded) return undefined;
    settings = loaded.desired.settings;
  }
  const run = await exportObjects(host, { kinds: NOMAD_ACL_KINDS, ...(settings ? { settings } : {}) });
  const world = worldFromDocuments(run.documents, method);
  return { ...(world ? { world } : {}), names: methodNames(run.documents), where: 'Nomad' };
}

async function desiredWorld(host: Host, paths: string[], method: string): Promise<{ world?: LoginWorld; names: string[]; where: string } | undefined> {
  const loaded = await loadForRun(host, paths);
  // A failing login test does not stop the explanation: explaining is how one finds out why it fails.
  const blocking = loaded.diagnostics.filter((d) => !d.code.startsWith('nomad.login-test.'));
  if (hasErrors(blocking)) {
    host.err(renderDiagnosticsText(blocking, { sources: loaded.sources, color: host.color }));
    host.err('The manifests have errors: fix them, then explain the login again.\n');
    return undefined;
  }
  const world = worldFromDesired(loaded.desired.objects, method);
  return { ...(world ? { world } : {}), names: methodNames(loaded.desired.objects), where: paths.join(' ') };
}

/** Reads a claims file: JSON claims or a JWT. A JWT is never printed. */
async function readClaims(host: Host, file: string): Promise<{ claims: Record<string, unknown>; form: 'json' | 'jwt' }> {
  let text: string;
  try {
    text = await readFile(resolve(host.cwd, file), 'utf8');
  } catch (e) {
    throw new ConvergeError('login.claims-unreadable', `cannot read the claims file ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { source: 'user', hint: 'Pass --claims FILE: a JSON object of claims, or a JWT.' });
  }
  const r = readClaimsText(text);
  if ('error' in r) throw new ConvergeError('login.claims-invalid', `${file}: ${r.error}`, { source: 'user', hint: 'Write the claims as one JSON object, e.g. {"email": "ada@acme.example", "groups": ["engineering"]}, or save the JWT itself.' });
  return { claims: r.claims, form: r.jwt ? 'jwt' : 'json' };
}

/**
 * `converge login explain`: what Nomad would do with a login by the given claims, evaluated offline
 * against the manifests (sends nothing, reads no secret), or with --live against what Nomad holds
 * (reads only).
 */
export async function loginExplainCommand(host: Host, paths: string[], opts: LoginExplainOptions): Promise<number> {
  const { claims, form } = await readClaims(host, opts.claims);
  const found = opts.live ? await liveWorld(host, paths, opts.method) : await desiredWorld(host, paths, opts.method);
  if (!found) return EXIT.error;
  const { world, names, where } = found;
  if (!world) {
    const guess = didYouMean(opts.method, names);
    throw new ConvergeError('login.no-such-method', `no NomadAuthMethod named ${opts.method} in ${where}${guess ? ` (did you mean ${guess}?)` : ''}`, {
      source: 'user',
      hint: names.length > 0 ? `${opts.live ? 'Nomad holds' : 'The manifests hold'}: ${names.join(', ')}.` : opts.live ? 'Nomad holds no auth method.' : 'The manifests hold no NomadAuthMethod: pass the paths that hold the method and its binding rules.',
    });
  }
  const x = explainLogin(world, claims);
  const ctx: ExplainContext = { claimsFile: opts.claims, claimsForm: form, against: opts.live ? 'live' : 'manifests' };
  if (opts.json) host.out(JSON.stringify(loginExplanationJson(x, ctx), null, 2) + '\n');
  else if (opts.markdown) host.out(renderLoginMarkdown(x, ctx));
  else host.out(renderLoginText(x, ctx));
  return EXIT.ok;
}
