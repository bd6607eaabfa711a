import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openWorkspace, runCli, type CliResult, type Workspace } from '../e2e/harness.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { createNomadVariablesBackend } from '../../src/state/nomad/index.js';
import { startRecordingProxy, type ProxiedRequest, type RecordingProxy } from './recording-proxy.js';

/*
 * A world for the reliability suites: a sandbox behind two recording proxies (bodies and answers
 * logged, so creates can be named by natural key), manifests generated from a small shape, and the
 * checks every suite makes: no duplicate create, no orphan, state matches live.
 */

/** Registry modules the no-code modules point at; the last three are published at start through the sandbox control. */
export const REGISTRY = ['vpc', 'lambda', 'queue', 'cache', 'dns'] as const;
export const EXTRA_VERSIONS = ['1.0.0', '1.1.0', '1.2.0'];

export interface Shape {
  authMethods: number;
  /** One binding rule per auth method, for the first N methods. */
  bindingRules: number;
  /** How many of REGISTRY get a no-code module. */
  modules: number;
  /** Workspaces per module. */
  workspacesPerModule: number;
  /** versionPin per module name (default: vpc 1.4.0, lambda 1.0.0, others 1.0.0). */
  pins?: Partial<Record<string, string>>;
  /** Extra workspace variables (key → value) for every vpc workspace (to provoke service rejections). */
  description?: string;
  state?: 'local' | 'nomad';
}

export const SETTINGS = (state: 'local' | 'nomad' = 'local') => `kind: Settings
name: default
spec:
  tfe: { organization: acme }
  state: ${state === 'local' ? '{ backend: local, path: .converge/state.json }' : '{ backend: nomad, path: converge/state }'}
`;

export function authMethod(i: number, ttl = '30m'): string {
  return `kind: NomadAuthMethod
name: am-${pad(i)}
spec:
  type: JWT
  tokenLocality: global
  maxTokenTtl: ${ttl}
  config:
    jwksUrl: https://token.actions.githubusercontent.com/.well-known/jwks
    boundIssuer: [https://token.actions.githubusercontent.com]
    boundAudiences: [https://github.com/acme/app-${pad(i)}]
    claimMappings:
      repository: repository
`;
}

/**
 * A templated bind name: these rules test reliability, not that the bound policy exists (a plain name
 * would need the policy in Nomad or a NomadAclPolicy document, or the plan is refused).
 */
export function bindingRule(i: number): string {
  return `kind: NomadBindingRule
name: br-${pad(i)}
spec:
  authMethod: am-${pad(i)}
  description: deployers of app ${pad(i)}
  selector: 'value.repository == "acme/app-${pad(i)}"'
  bindType: policy
  bindName: deploy-${pad(i)}-\${value.repository}
`;
}

export function module(name: string, pin: string): string {
  return `kind: NoCodeModule
name: ${name}
spec:
  registryModule: acme/${name}/aws
  versionPin: ${pin}
  enabled: true
`;
}

/**
 * A workspace of a module. `deletion: destroy`: a no-code workspace whose run applied manages resources,
 * which safe-delete refuses (docs/reference/hcp-terraform-api.md §5), so removing one from the manifests needs a destroy run.
 */
export function workspace(mod: string, i: number, description = 'reliability'): string {
  const vars =
    mod === 'vpc'
      ? `  variables:
    - key: region
      value: eu-west-1
      category: terraform
    - key: db_password
      value: { fromEnv: VPC_DB_PASSWORD }
      category: terraform
      sensitive: true
`
      : '';
  return `kind: NoCodeWorkspace
name: ${mod}-${pad(i)}
spec:
  module: ${mod}
  project: Platform
  description: ${description}
  executionMode: remote
  autoApply: true
  upgrade: { confirm: auto }
  deletion: destroy
${vars}`;
}

export const pad = (i: number) => String(i).padStart(2, '0');

const DEFAULT_PINS: Record<string, string> = { vpc: '1.4.0', lambda: '1.0.0', queue: '1.0.0', cache: '1.0.0', dns: '1.0.0' };

/** Every manifest of a shape, one file per kind. */
export function manifests(shape: Shape): Record<string, string> {
  const docs = (xs: string[]) => xs.join('---\n');
  const am: string[] = [];
  for (let i = 0; i < shape.authMethods; i++) am.push(authMethod(i));
  const br: string[] = [];
  for (let i = 0; i < Math.min(shape.bindingRules, shape.authMethods); i++) br.push(bindingRule(i));
  const mods: string[] = [];
  const wss: string[] = [];
  for (const name of REGISTRY.slice(0, shape.modules)) {
    mods.push(module(name, shape.pins?.[name] ?? DEFAULT_PINS[name] ?? '1.0.0'));
    for (let i = 0; i < shape.workspacesPerModule; i++) wss.push(workspace(name, i, shape.description));
  }
  return {
    'settings.yaml': SETTINGS(shape.state),
    'auth-methods.yaml': docs(am),
    'binding-rules.yaml': docs(br),
    'modules.yaml': docs(mods),
    'workspaces.yaml': docs(wss),
  };
}

export interface World {
  ws: Workspace;
  nomadProxy: RecordingProxy;
  tfeProxy: RecordingProxy;
  /** Environment for the CLI: through the proxies. */
  env: Record<string, string>;
  cli(args: string[], extraEnv?: Record<string, string>): Promise<CliResult>;
  writeShape(shape: Shape): Promise<void>;
  close(): Promise<void>;
}

export async function openWorld(opts: { sandbox?: SandboxOptions; seed?: number } = {}): Promise<World> {
  const ws = await openWorkspace({ sandbox: { rateLimit: false, ...opts.sandbox } });
  for (const name of REGISTRY.slice(2)) for (const v of EXTRA_VERSIONS) ws.sandbox.tfe.control.publishModuleVersion('acme', name, 'aws', v);
  // Published versions are ingested one step delay later (SPEC): wait for them.
  await new Promise((r) => setTimeout(r, 100));
  const nomadProxy = await startRecordingProxy(ws.sandbox.nomad.url, (opts.seed ?? 7) + 1);
  const tfeProxy = await startRecordingProxy(ws.sandbox.tfe.url, (opts.seed ?? 7) + 2);
  const env = { ...ws.env, NOMAD_ADDR: nomadProxy.url, TFE_ADDRESS: tfeProxy.url };
  return {
    ws,
    nomadProxy,
    tfeProxy,
    env,
    cli: (args, extraEnv) => runCli(args, { cwd: ws.dir, env: { ...env, ...extraEnv } }),
    async writeShape(shape) {
      for (const [file, text] of Object.entries(manifests(shape))) await ws.write(file, text);
    },
    async close() {
      await nomadProxy.stop();
      await tfeProxy.stop();
      await ws.close();
    },
  };
}

// --- live inventory (read straight from the simulators, not through the proxies) ---------------

export interface LiveObject {
  kind: 'NomadAuthMethod' | 'NomadBindingRule' | 'NoCodeModule' | 'NoCodeWorkspace';
  id: string;
  /** Natural key: name (auth method, workspace), registry module (no-code module), auth method + selector + bind (rule). */
  key: string;
}

async function getJson(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const r = await fetch(url, { headers });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

export function ruleKey(r: { AuthMethod?: unknown; Selector?: unknown; BindType?: unknown; BindName?: unknown }): string {
  return `${String(r.AuthMethod)}|${String(r.Selector)}|${String(r.BindType)}|${String(r.BindName)}`;
}

/** Everything live in the sandbox that converge could have made (the TFE seed has no workspaces or no-code modules). */
export async function liveInventory(world: World): Promise<LiveObject[]> {
  const { nomad, tfe } = world.ws.sandbox;
  const nh = { 'X-Nomad-Token': nomad.managementToken };
  const out: LiveObject[] = [];
  const methods = (await getJson(`${nomad.url}/v1/acl/auth-methods`, nh)).body as { Name: string }[];
  for (const m of methods) out.push({ kind: 'NomadAuthMethod', id: m.Name, key: m.Name });
  const stubs = (await getJson(`${nomad.url}/v1/acl/binding-rules`, nh)).body as { ID: string }[];
  for (const s of stubs) {
    const r = (await getJson(`${nomad.url}/v1/acl/binding-rule/${s.ID}`, nh)).body as Record<string, unknown>;
    out.push({ kind: 'NomadBindingRule', id: s.ID, key: ruleKey(r) });
  }
  const th = { Authorization: `Bearer ${tfe.tokens.user}` };
  for (let page = 1; ; page++) {
    const r = (await getJson(`${tfe.url}/api/v2/organizations/acme/workspaces?page%5Bnumber%5D=${page}&page%5Bsize%5D=100`, th)).body as {
      data: { id: string; attributes: { name: string } }[];
      meta?: { pagination?: { 'next-page'?: number | null } };
    };
    for (const w of r.data) out.push({ kind: 'NoCodeWorkspace', id: w.id, key: w.attributes.name });
    if (!r.meta?.pagination?.['next-page']) break;
  }
  // No list endpoint for no-code modules (docs/reference/hcp-terraform-api.md §1): probe every id a create ever answered.
  for (const id of new Set(createdIds(world.tfeProxy.log, 'NoCodeModule'))) {
    const r = await getJson(`${tfe.url}/api/v2/no-code-modules/${id}`, th);
    if (r.status !== 200) continue;
    const data = (r.body as { data: { relationships?: Record<string, { data?: { id?: string } }> } }).data;
    out.push({ kind: 'NoCodeModule', id, key: data.relationships?.['registry-module']?.data?.id ?? id });
  }
  return out;
}

// --- what the request logs say -------------------------------------------------------------------

export type CreateKind = 'NomadBindingRule' | 'NoCodeModule' | 'NoCodeWorkspace' | 'Upgrade';

/** A create (or upgrade initiation) request, named by natural key. */
export interface CreateRequest {
  kind: CreateKind;
  key: string;
  /** The service acted on it: 2xx (also when the proxy then dropped the reply). */
  processed: boolean;
  resetAfter: boolean;
  id?: string;
  seq: number;
}

const dig = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);

export function createRequests(nomadLog: ProxiedRequest[], tfeLog: ProxiedRequest[]): CreateRequest[] {
  const out: CreateRequest[] = [];
  const ok = (r: ProxiedRequest) => r.status >= 200 && r.status < 300;
  for (const r of nomadLog) {
    if (r.method !== 'POST' && r.method !== 'PUT') continue;
    if (r.path === '/v1/acl/binding-rule') {
      const id = dig(r.answer, 'ID');
      out.push({ kind: 'NomadBindingRule', key: ruleKey(r.body as Record<string, unknown>), processed: ok(r), resetAfter: r.resetAfter, ...(typeof id === 'string' ? { id } : {}), seq: r.seq });
    }
  }
  for (const r of tfeLog) {
    if (r.method !== 'POST') continue;
    const id = dig(r.answer, 'data', 'id');
    const idPart = typeof id === 'string' ? { id } : {};
    if (/^\/api\/v2\/organizations\/[^/]+\/no-code-modules$/.test(r.path)) {
      const key = String(dig(r.body, 'data', 'relationships', 'registry-module', 'data', 'id'));
      out.push({ kind: 'NoCodeModule', key, processed: ok(r), resetAfter: r.resetAfter, ...idPart, seq: r.seq });
    } else if (/^\/api\/v2\/no-code-modules\/[^/]+\/workspaces$/.test(r.path)) {
      const key = String(dig(r.body, 'data', 'attributes', 'name'));
      out.push({ kind: 'NoCodeWorkspace', key, processed: ok(r), resetAfter: r.resetAfter, ...idPart, seq: r.seq });
    } else {
      const m = /^\/api\/v2\/no-code-modules\/[^/]+\/workspaces\/([^/]+)\/upgrade$/.exec(r.path);
      if (m) out.push({ kind: 'Upgrade', key: m[1] ?? '', processed: ok(r), resetAfter: r.resetAfter, seq: r.seq });
    }
  }
  return out;
}

function createdIds(log: ProxiedRequest[], kind: 'NoCodeModule'): string[] {
  return createRequests([], log)
    .filter((c) => c.kind === kind && c.processed && c.id !== undefined)
    .map((c) => c.id as string);
}

/**
 * Duplicate creates among `creates` (one window of requests, e.g. an apply and its rerun): a second
 * processed create of the same natural key, or any create sent after one was processed for that key
 * (the service refusing it as taken still means converge re-sent a create it should have found).
 * `deletedBetween` lets a suite say a key was deleted on purpose in the window.
 */
export function duplicateCreates(creates: CreateRequest[]): { kind: CreateKind; key: string; count: number }[] {
  const seen = new Map<string, { kind: CreateKind; key: string; count: number }>();
  for (const c of creates) {
    const k = `${c.kind}:${c.key}`;
    const s = seen.get(k);
    if (!s) {
      if (c.processed) seen.set(k, { kind: c.kind, key: c.key, count: 1 });
      continue;
    }
    s.count += 1;
  }
  return [...seen.values()].filter((s) => s.count > 1);
}

// --- state --------------------------------------------------------------------------------------

export interface StateRecordLite {
  kind: string;
  name: string;
  id: string;
  inFlight?: unknown;
}

export async function readLocalState(world: World): Promise<StateRecordLite[]> {
  const text = await readFile(join(world.ws.dir, '.converge', 'state.json'), 'utf8');
  const doc = JSON.parse(text) as { records: StateRecordLite[] };
  return doc.records;
}

/** Where SETTINGS(state) keeps the Nomad Variables state. */
export const NOMAD_STATE_PATH = 'converge/state';

/** The state's records from either backend, read straight from the simulator (not through the proxies). */
export async function readState(world: World, state: 'local' | 'nomad'): Promise<StateRecordLite[]> {
  if (state === 'local') return readLocalState(world);
  const { nomad } = world.ws.sandbox;
  const backend = createNomadVariablesBackend({ address: nomad.url, token: nomad.managementToken, path: NOMAD_STATE_PATH });
  try {
    return (await backend.read()).records;
  } finally {
    await backend.close();
  }
}

/**
 * After a SIGKILL the Nomad state lock stays until its lease runs out (2 x 30 s, then 15 s, see
 * docs/reference/nomad-api.md §9): the suites remove it as `converge state unlock <id>` does (the state
 * backend's forceUnlock, called here in-process: starting a CLI process for it took a fifth of the Nomad
 * crash-safety run; the command itself has its own tests).
 */
export async function unlockIfHeld(world: World): Promise<void> {
  const { nomad } = world.ws.sandbox;
  const r = await getJson(`${nomad.url}/v1/var/${NOMAD_STATE_PATH}-lock`, { 'X-Nomad-Token': nomad.managementToken });
  const v = r.body as { Lock?: { ID?: string } | null; Items?: { id?: string } | null } | undefined;
  if (r.status !== 200 || !v?.Lock?.ID) return;
  const backend = createNomadVariablesBackend({ address: nomad.url, token: nomad.managementToken, path: NOMAD_STATE_PATH });
  try {
    await backend.forceUnlock(v.Items?.id ?? v.Lock.ID);
  } finally {
    await backend.close();
  }
}

export interface Consistency {
  /** Live objects nobody wants: not in state, or not described by the manifests. */
  orphans: string[];
  /** State records with no live object, or pointing at another id. */
  stale: string[];
  /** Natural keys with more than one live object. */
  liveDuplicates: string[];
}

/** State matches live, and live holds exactly the objects the shape describes. */
export function checkConsistency(live: LiveObject[], records: StateRecordLite[], shape: Shape): Consistency {
  const desired = new Set<string>();
  for (let i = 0; i < shape.authMethods; i++) desired.add(`NomadAuthMethod/am-${pad(i)}`);
  for (let i = 0; i < Math.min(shape.bindingRules, shape.authMethods); i++) desired.add(`NomadBindingRule/br-${pad(i)}`);
  for (const m of REGISTRY.slice(0, shape.modules)) {
    desired.add(`NoCodeModule/${m}`);
    for (let i = 0; i < shape.workspacesPerModule; i++) desired.add(`NoCodeWorkspace/${m}-${pad(i)}`);
  }
  const byId = new Map(records.map((r) => [`${r.kind}:${r.id}`, r]));
  const orphans: string[] = [];
  for (const o of live) {
    const r = byId.get(`${o.kind}:${o.id}`);
    if (!r) orphans.push(`${o.kind} ${o.id} (${o.key}) is live but not in state`);
    else if (!desired.has(`${r.kind}/${r.name}`)) orphans.push(`${r.kind}/${r.name} (${o.id}) is live and in state but not in the manifests`);
  }
  const liveIds = new Set(live.map((o) => `${o.kind}:${o.id}`));
  const stale: string[] = [];
  for (const r of records) if (!liveIds.has(`${r.kind}:${r.id}`)) stale.push(`${r.kind}/${r.name} (${r.id}) is in state but not live`);
  for (const d of desired) if (!records.some((r) => `${r.kind}/${r.name}` === d)) stale.push(`${d} is in the manifests but not in state`);
  const keys = new Map<string, number>();
  for (const o of live) keys.set(`${o.kind}:${o.key}`, (keys.get(`${o.kind}:${o.key}`) ?? 0) + 1);
  const liveDuplicates = [...keys].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
  return { orphans, stale, liveDuplicates };
}

export const FAST = ['--poll-interval', '20ms', '--run-timeout', '60s'];
