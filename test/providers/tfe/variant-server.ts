import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A second, deliberately different HCP Terraform stand-in for the client tests: a loopback HTTP
 * server that answers the way the reference (docs/reference/hcp-terraform-api.md) says the real service MAY answer, in
 * the variants our own sandbox does not use. converge is checked against an independent
 * simulator; this server keeps the client honest about every variant the reference allows:
 * - no `/account/details` (404 with `{"errors":["not found"]}` string errors);
 * - lists paginated by `links.next` only (no meta), projects two per page whatever page[size] says;
 * - registry modules typed `registry-module`, `version-statuses` entries without `status`, the
 *   no-code module found only through `included` (its `registry-module` back-reference);
 * - `version-pin` null when none was sent, `description` null, sensitive values `""`;
 * - a first 429 with a numeric-status body and only `X-RateLimit-Reset` (float seconds);
 * - the create answer's `current-run: null`; runs that pass through pre_plan_*, post_plan_*,
 *   queuing_apply, post_apply_* states and wait at `post_plan_completed` without `actions`;
 * - upgrade initiate without an id (go-tfe's view), confirm answering the documented non-JSON body.
 * Every POST/PATCH/DELETE without `Content-Type: application/vnd.api+json` gets 415 and is counted.
 * Runs advance one state per read, so the tests are deterministic without timers.
 */

const JSON_API = 'application/vnd.api+json';
const ORG = 'acme';

type Obj = Record<string, unknown>;

interface Run {
  id: string;
  workspaceId: string;
  status: string;
  upgradeTo?: string;
  confirmed: boolean;
}

interface Workspace {
  id: string;
  name: string;
  moduleId: string;
  version: string;
  autoApply: boolean;
  projectId: string;
  vars: { id: string; key: string; value: string; category: string; hcl: boolean; sensitive: boolean; description: string | null; version: number }[];
}

const PLAN_STATES = ['pending', 'pre_plan_running', 'pre_plan_completed', 'queuing', 'planning', 'post_plan_running', 'post_plan_completed'];
const APPLY_STATES = ['queuing_apply', 'apply_queued', 'applying', 'post_apply_running', 'post_apply_completed', 'applied'];

export interface VariantServer {
  url: string;
  token: string;
  /** Requests, as `METHOD path`. */
  requests: string[];
  /** Writes answered 415 (a client bug). */
  missingContentType: string[];
  workspaces: Map<string, Workspace>;
  runs: Map<string, Run>;
  stop(): Promise<void>;
}

export async function startVariantServer(): Promise<VariantServer> {
  const token = 'variant-user-token';
  const requests: string[] = [];
  const missingContentType: string[] = [];
  const projects = [
    { id: 'prj-Default0000000001', name: 'Default Project' },
    { id: 'prj-Other00000000002', name: 'Other' },
    { id: 'prj-Platform00000003', name: 'Platform' },
  ];
  const registry = { id: 'mod-Vpc0000000000001', namespace: ORG, name: 'vpc', provider: 'aws', versions: ['1.0.0', '1.1.0'] };
  let noCode: { id: string; pin: string | null; enabled: boolean; options: { id: string; name: string; type: string; options: unknown[] }[] } | null = null;
  const workspaces = new Map<string, Workspace>();
  const runs = new Map<string, Run>();
  let seq = 0;
  const nextId = (prefix: string) => `${prefix}-V${String(++seq).padStart(15, '0')}`;
  let rateLimitedOnce = false;

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'X-RateLimit-Limit': '30', ...(text !== '' ? { 'Content-Type': JSON_API } : {}), ...headers });
    res.end(text);
  };
  const notFound = (res: ServerResponse) => send(res, 404, { errors: [{ status: '404', title: 'not found' }] });

  const wsDoc = (w: Workspace): Obj => ({
    id: w.id,
    type: 'workspaces',
    attributes: {
      name: w.name,
      description: null,
      'auto-apply': w.autoApply,
      'execution-mode': 'remote',
      source: 'tfe-module',
      'source-name': null,
      'source-url': null,
      'source-module-id': `private/${ORG}/vpc/aws/${w.version}`,
      'no-code-upgrade-available': noCode?.pin !== null && noCode?.pin !== w.version,
      'setting-overwrites': { 'execution-mode': false, 'agent-pool': false },
    },
    relationships: {
      // The create answer still shows no run (docs/reference/hcp-terraform-api.md §2); reads show none either here.
      'current-run': { data: null },
      'agent-pool': { data: null },
      project: { data: { id: w.projectId, type: 'projects' } },
    },
  });
  const runDoc = (r: Run): Obj => ({ id: r.id, type: 'runs', attributes: { status: r.status, 'is-destroy': false } });
  const advance = (r: Run) => {
    const plan = PLAN_STATES.indexOf(r.status);
    if (plan >= 0 && plan < PLAN_STATES.length - 1) r.status = PLAN_STATES[plan + 1] as string;
    else if (r.status === 'post_plan_completed' && (r.confirmed || (workspaces.get(r.workspaceId)?.autoApply === true && r.upgradeTo === undefined))) r.status = 'queuing_apply';
    else {
      const apply = APPLY_STATES.indexOf(r.status);
      if (apply >= 0 && apply < APPLY_STATES.length - 1) r.status = APPLY_STATES[apply + 1] as string;
    }
    if (r.status === 'applied' && r.upgradeTo !== undefined) {
      const w = workspaces.get(r.workspaceId);
      if (w) w.version = r.upgradeTo;
    }
  };
  const noCodeDoc = (): Obj => ({
    id: noCode?.id,
    type: 'no-code-modules',
    attributes: { enabled: noCode?.enabled, 'version-pin': noCode?.pin ?? null },
    relationships: {
      organization: { data: { id: ORG, type: 'organizations' } },
      'registry-module': { data: { id: registry.id, type: 'registry-modules' } },
      'variable-options': { data: (noCode?.options ?? []).map((o) => ({ id: o.id, type: 'variable-options' })) },
    },
  });
  const upgradeDoc = (r: Run): Obj => ({
    data: { type: 'workspace-upgrade', attributes: { status: r.status, 'plan-url': `https://example.invalid/app/${ORG}/runs/${r.id}` } },
  });

  const route = (req: IncomingMessage, res: ServerResponse, body: Obj | undefined) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/api\/v2/, '');
    const method = req.method ?? 'GET';
    const seg = path.split('/').filter((s) => s !== '');
    const q = url.searchParams;

    // The ping every client reads first: 204 with the API version header (go-tfe tfe.go).
    if (method === 'GET' && path === '/ping') return void res.writeHead(204, { 'TFP-API-Version': '2.6', 'TFP-AppName': 'HCP Terraform' }).end();
    if (method === 'GET' && path === '/account/details') return send(res, 404, { errors: ['not found'] });

    if (method === 'GET' && path === `/organizations/${ORG}/registry-modules`) {
      if (!rateLimitedOnce) {
        rateLimitedOnce = true;
        // The documented 429 body (numeric status) and only X-RateLimit-Reset, no Retry-After (docs/reference/hcp-terraform-api.md §8).
        return send(res, 429, { errors: [{ detail: "You have exceeded the API's rate limit.", status: 429, title: 'Too many requests' }] }, { 'X-RateLimit-Reset': '0.05' });
      }
      const included = noCode ? [noCodeDoc()] : [];
      const data = [
        {
          id: registry.id,
          type: 'registry-module',
          attributes: {
            name: registry.name,
            namespace: registry.namespace,
            provider: registry.provider,
            'registry-name': 'private',
            'no-code': noCode !== null,
            // 1.0.0 carries no status: taken as usable.
            'version-statuses': [{ version: '1.0.0' }, { version: '1.1.0', status: 'ok' }],
          },
          relationships: { organization: { data: { id: ORG, type: 'organizations' } } },
        },
      ];
      return send(res, 200, { data, included, links: { next: null } });
    }
    if (method === 'GET' && path === `/organizations/${ORG}/projects`) {
      const number = Number(q.get('page[number]') ?? '1');
      const page = projects.slice((number - 1) * 2, number * 2);
      const more = number * 2 < projects.length;
      const next = more ? `http://x/api/v2/organizations/${ORG}/projects?page%5Bnumber%5D=${number + 1}&page%5Bsize%5D=2` : null;
      return send(res, 200, { data: page.map((p) => ({ id: p.id, type: 'projects', attributes: { name: p.name } })), links: { next } });
    }
    if (method === 'POST' && path === `/organizations/${ORG}/no-code-modules`) {
      const d = body?.data as Obj;
      const a = d.attributes as Obj;
      const opts = ((d.relationships as Obj)['variable-options'] as { data: { attributes: Obj }[] }).data;
      noCode = {
        id: 'nocode-V00000000000001',
        // version-pin may come back empty/null when not given (docs/reference/hcp-terraform-api.md §1.1).
        pin: typeof a['version-pin'] === 'string' && a['version-pin'] !== '' ? a['version-pin'] : null,
        enabled: a.enabled !== false,
        options: opts.map((o) => ({ id: nextId('ncvaropt'), name: String(o.attributes['variable-name']), type: String(o.attributes['variable-type']), options: (o.attributes.options as unknown[]) ?? [] })),
      };
      return send(res, 200, { data: noCodeDoc() });
    }
    if (seg[0] === 'no-code-modules' && seg.length === 2 && noCode && seg[1] === noCode.id) {
      if (method === 'GET') {
        const inc = q.get('include');
        if (inc !== null && inc !== 'variable_options' && inc !== 'variable-options') return send(res, 400, { errors: [{ status: '400', title: 'bad request' }] });
        const included =
          inc === null
            ? []
            : noCode.options.map((o) => ({
                id: o.id,
                type: 'variable-options',
                attributes: { 'variable-name': o.name, 'variable-type': o.type, options: o.options },
                relationships: { 'no-code-allowed-module': { data: { id: noCode?.id, type: 'no-code-allowed-modules' } } },
              }));
        return send(res, 200, { data: noCodeDoc(), included });
      }
      if (method === 'PATCH') {
        const d = body?.data as Obj;
        const a = (d.attributes ?? {}) as Obj;
        if (typeof a['version-pin'] === 'string') noCode.pin = a['version-pin'];
        if (typeof a.enabled === 'boolean') noCode.enabled = a.enabled;
        return send(res, 200, { data: noCodeDoc() });
      }
    }
    if (method === 'GET' && seg[0] === 'organizations' && seg[2] === 'workspaces' && seg.length === 4) {
      const w = [...workspaces.values()].find((x) => x.name === decodeURIComponent(seg[3] ?? ''));
      return w ? send(res, 200, { data: wsDoc(w) }) : notFound(res);
    }
    if (method === 'POST' && seg[0] === 'no-code-modules' && seg[2] === 'workspaces' && seg.length === 3) {
      const d = body?.data as Obj;
      const a = d.attributes as Obj;
      const rel = d.relationships as Obj;
      const w: Workspace = {
        id: nextId('ws'),
        name: String(a.name),
        moduleId: seg[1] ?? '',
        version: noCode?.pin ?? '1.1.0',
        autoApply: a['auto-apply'] === true,
        projectId: ((rel.project as { data?: { id?: string } } | undefined)?.data?.id as string | undefined) ?? 'prj-Default0000000001',
        vars: ((rel.vars as { data: { attributes: Obj }[] } | undefined)?.data ?? []).map((v) => ({
          id: nextId('var'),
          key: String(v.attributes.key),
          value: String(v.attributes.value ?? ''),
          category: String(v.attributes.category ?? 'terraform'),
          hcl: v.attributes.hcl === true,
          sensitive: v.attributes.sensitive === true,
          description: typeof v.attributes.description === 'string' && v.attributes.description !== '' ? v.attributes.description : null,
          version: 1,
        })),
      };
      workspaces.set(w.id, w);
      const r: Run = { id: nextId('run'), workspaceId: w.id, status: 'pending', confirmed: false };
      runs.set(r.id, r);
      return send(res, 200, { data: wsDoc(w) });
    }
    if (seg[0] === 'workspaces' && seg.length >= 2) {
      const w = workspaces.get(seg[1] ?? '');
      if (!w) return notFound(res);
      if (method === 'GET' && seg.length === 2) return send(res, 200, { data: wsDoc(w) });
      if (method === 'GET' && seg[2] === 'runs') {
        const list = [...runs.values()].filter((r) => r.workspaceId === w.id).reverse();
        return send(res, 200, { data: list.map(runDoc) });
      }
      if (method === 'GET' && seg[2] === 'vars') {
        return send(res, 200, {
          data: w.vars.map((v) => ({
            id: v.id,
            type: 'vars',
            attributes: {
              key: v.key,
              // Sensitive values come back empty (go-tfe test, docs/reference/hcp-terraform-api.md §6).
              value: v.sensitive ? '' : v.value,
              category: v.category,
              hcl: v.hcl,
              sensitive: v.sensitive,
              description: v.description,
              'version-id': `v${v.version}`,
            },
            relationships: { configurable: { data: { id: w.id, type: 'workspaces' } } },
          })),
        });
      }
    }
    if (seg[0] === 'runs' && seg.length >= 2) {
      const r = runs.get(seg[1] ?? '');
      if (!r) return notFound(res);
      if (method === 'GET' && seg.length === 2) {
        advance(r);
        return send(res, 200, { data: runDoc(r) });
      }
      if (method === 'POST' && seg[2] === 'actions' && seg[3] === 'apply') {
        if (r.status !== 'post_plan_completed') return send(res, 409, { errors: [{ status: '409', title: 'conflict', detail: 'transition not allowed' }] });
        r.confirmed = true;
        return send(res, 202);
      }
    }
    if (seg[0] === 'no-code-modules' && seg[2] === 'workspaces' && seg[4] === 'upgrade') {
      const w = workspaces.get(seg[3] ?? '');
      if (!w || !noCode || seg[1] !== noCode.id) return notFound(res);
      if (method === 'POST' && seg.length === 5) {
        if (noCode.pin === null || noCode.pin === w.version) return send(res, 200, { data: { type: 'workspace-upgrade', attributes: { message: 'No upgrade available' } } });
        const r: Run = { id: nextId('run'), workspaceId: w.id, status: 'pending', upgradeTo: noCode.pin, confirmed: false };
        runs.set(r.id, r);
        // No id: the run is only in plan-url, as go-tfe sees it (docs/reference/hcp-terraform-api.md §3).
        return send(res, 200, upgradeDoc(r));
      }
      const r = runs.get(seg[5] ?? '');
      if (!r || r.workspaceId !== w.id) return notFound(res);
      if (method === 'GET') {
        advance(r);
        return send(res, 200, upgradeDoc(r));
      }
      if (method === 'POST') {
        if (r.status !== 'post_plan_completed') return send(res, 409, { errors: [{ status: '409', title: 'conflict' }] });
        r.confirmed = true;
        // The documented confirm body is not JSON (docs/reference/hcp-terraform-api.md §3).
        return send(res, 200, '{ "Workspace update completed" }');
      }
    }
    return notFound(res);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      requests.push(`${method} ${req.url ?? ''}`);
      if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { errors: [{ status: '401', title: 'unauthorized' }] });
      if (method !== 'GET' && !(req.headers['content-type'] ?? '').includes(JSON_API)) {
        missingContentType.push(`${method} ${req.url ?? ''}`);
        return send(res, 415, { errors: [{ status: '415', title: 'unsupported media type' }] });
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Obj | undefined;
      try {
        body = text === '' ? undefined : (JSON.parse(text) as Obj);
      } catch {
        return send(res, 400, { errors: [{ status: '400', title: 'bad request' }] });
      }
      route(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    missingContentType,
    workspaces,
    runs,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
