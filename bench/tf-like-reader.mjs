// A reader that refreshes the same fleet the way Terraform with the tfe and nomad providers does: one read per
// object, from the ids in state, with Terraform's default parallelism of 10. It is bench code, plain undici,
// sharing nothing with converge. The HCP Terraform side behaves like go-tfe v1 (docs/reference/hcp-terraform-api.md §8):
// - NewClient first calls GET /api/v2/ping and sets a client-side limiter from X-RateLimit-Limit:
//   rate = 0.66 × limit, burst = 0.33 × limit (a token bucket; one token per request, retries not limited);
// - a 429 is retried (up to 30 times) after max(X-RateLimit-Reset, 100 ms) + jitter in [0, 300 ms).
// Reads: GET /workspaces/:id (tfe_workspace), GET /no-code-modules/:id?include=variable-options
// (tfe_no_code_module), GET /v1/acl/auth-method/:name, and for variables either
// - `perVariable` (the default, what Terraform does): GET /workspaces/:id/vars/:var_id once per variable,
//   as tfe_variable's Read calls go-tfe's Variables.Read (terraform-provider-tfe resource_tfe_variable.go);
//   the variable ids are what Terraform's state holds, passed in as `varIds`; or
// - one GET /workspaces/:id/vars list per workspace, a cheaper reader than Terraform itself.
import { Pool } from 'undici';

class TokenBucket {
  constructor(rate, burst) {
    this.rate = rate;
    this.burst = burst;
    this.tokens = burst;
    this.last = performance.now();
  }
  /** Milliseconds to wait for a token (reserved now), like golang.org/x/time/rate Reserve. */
  reserve() {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.rate) * 1000;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function goTfeClient(address, token) {
  const pool = new Pool(address, { connections: 10 });
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' };
  const stats = { requests: 0, status429: 0 };
  let limiter;
  async function get(path) {
    if (limiter) {
      const wait = limiter.reserve();
      if (wait > 0) await sleep(wait);
    }
    for (let attempt = 0; ; attempt++) {
      stats.requests += 1;
      const res = await pool.request({ path, method: 'GET', headers });
      await res.body.text();
      if (res.statusCode !== 429 || attempt >= 30) return res.statusCode;
      stats.status429 += 1;
      const reset = Number(res.headers['x-ratelimit-reset']);
      const min = Number.isFinite(reset) && reset * 1000 > 100 ? reset * 1000 : 100;
      await sleep(min + Math.random() * 300);
    }
  }
  return {
    stats,
    async connect() {
      stats.requests += 1;
      const res = await pool.request({ path: '/api/v2/ping', method: 'GET', headers });
      await res.body.text();
      const limit = Number(res.headers['x-ratelimit-limit']);
      if (limit > 0) limiter = new TokenBucket(limit * 0.66, Math.floor(limit * 0.33));
    },
    get,
    close: () => pool.close(),
  };
}

/**
 * Refreshes every object of `state` (converge's state document: the ids Terraform would have in its own).
 * Returns requests per service, 429s and wall time in ms.
 */
export async function terraformLikeRefresh({ tfeAddress, tfeToken, nomadAddress, nomadToken, state, varIds, parallelism = 10 }) {
  const t0 = performance.now();
  const tfe = goTfeClient(tfeAddress, tfeToken);
  const nomad = new Pool(nomadAddress, { connections: parallelism });
  let nomadRequests = 0;
  const reads = [];
  for (const r of state.records) {
    if (r.kind === 'NomadAuthMethod') {
      reads.push(async () => {
        nomadRequests += 1;
        const res = await nomad.request({ path: `/v1/acl/auth-method/${encodeURIComponent(r.id)}`, method: 'GET', headers: { 'x-nomad-token': nomadToken } });
        await res.body.text();
        return res.statusCode;
      });
    } else if (r.kind === 'NoCodeModule') {
      reads.push(() => tfe.get(`/api/v2/no-code-modules/${r.id}?include=variable-options`));
    } else if (r.kind === 'NoCodeWorkspace') {
      reads.push(() => tfe.get(`/api/v2/workspaces/${r.id}`));
      if (varIds) for (const v of varIds.get(r.id) ?? []) reads.push(() => tfe.get(`/api/v2/workspaces/${r.id}/vars/${v}`));
      else reads.push(() => tfe.get(`/api/v2/workspaces/${r.id}/vars`));
    }
  }
  await tfe.connect();
  let next = 0;
  const failures = [];
  const worker = async () => {
    while (next < reads.length) {
      const status = await reads[next++]();
      if (status !== 200) failures.push(status);
    }
  };
  await Promise.all(Array.from({ length: parallelism }, worker));
  await Promise.all([tfe.close(), nomad.close()]);
  if (failures.length > 0) throw new Error(`terraform-like refresh: ${failures.length} reads failed (e.g. HTTP ${failures[0]})`);
  return { tfeRequests: tfe.stats.requests, tfe429: tfe.stats.status429, nomadRequests, ms: performance.now() - t0 };
}

/** The variable ids of each workspace in `state` (what Terraform's state would hold), read untimed. */
export async function workspaceVarIds({ tfeAddress, tfeToken, state }) {
  const pool = new Pool(tfeAddress, { connections: 10 });
  const headers = { authorization: `Bearer ${tfeToken}`, accept: 'application/vnd.api+json' };
  const out = new Map();
  const ids = state.records.filter((r) => r.kind === 'NoCodeWorkspace').map((r) => r.id);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const res = await pool.request({ path: `/api/v2/workspaces/${id}/vars`, method: 'GET', headers });
      const body = JSON.parse(await res.body.text());
      if (res.statusCode !== 200) throw new Error(`listing the variables of ${id}: HTTP ${res.statusCode}`);
      out.set(id, body.data.map((v) => v.id));
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  await pool.close();
  return out;
}
