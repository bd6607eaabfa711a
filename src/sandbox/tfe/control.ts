import type { IncomingMessage, ServerResponse } from 'node:http';
import { NO_FAULTS, type FaultSettings, type Faults } from '../common/faults.js';
import type { RequestLog } from '../common/request-log.js';
import { HELD_RUN_STATES, type RunOutcome, type Store } from './model.js';
import type { RateLimiter, RunListRation } from './rate-limit.js';
import type { RequestFailure, RequestFailures } from './request-failures.js';
import type { RunEngine } from './run-engine.js';
import { addFleet, type Fleet } from './fleet-seed.js';

/**
 * The sandbox's own switches for tests and the demo: things that happen outside the API in real life (a module
 * version gets published, a plan errors, state holds resources). Not part of HCP Terraform's API; over HTTP under
 * `/__sandbox/`, never logged, never subject to faults or the rate limit.
 */
export interface TfeControl {
  /** A new version of a private module; `pending` at once, ingested (`ok`) one step delay later. */
  publishModuleVersion(org: string, name: string, provider: string, version: string): void;
  /** Outcome of the next run queued in the workspace (by name; may be set before the workspace exists). */
  setNextRunOutcome(workspaceName: string, outcome: RunOutcome): void;
  /** Resources in the workspace's state: safe-delete answers 409 while > 0. */
  setManagedResources(workspaceName: string, n: number): void;
  /** Time between run state transitions, ms. */
  setStepDelay(ms: number): void;
  /**
   * The organization's concurrent runs (0: no limit, the default): runs beyond it wait at `plan_queued` /
   * `apply_queued` until one ends its plan or apply, as in HCP Terraform.
   */
  setRunConcurrency(n: number): void;
  /**
   * Change the per-token limit (requests per second), as a Terraform Enterprise operator can; answers advertise
   * it in `X-RateLimit-Limit`. Benchmarks seed a large world under a high limit, then measure under the real 30.
   * Throws when the simulator was started with the limit off.
   */
  setRateLimit(perSecond: number): void;
  /**
   * The run lists' ration per token and rolling minute (30 like HCP Terraform), or false to turn it off: tests and
   * benchmarks that read run lists themselves, or seed a world, tune it.
   */
  setRunListRation(perMinute: number | false): void;
  /** A person's decision on the workspace's run held for one (`post_plan_awaiting_decision`, …: see RunEngine.decide). */
  decideRun(workspaceName: string, decision: 'override' | 'cancel'): void;
  /**
   * Fail one chosen request once: the `nth` (default 1) request from now whose method matches and whose URL
   * path matches the regular expression `path` answers `status` (500 default, or 503), after `delayMs`, and
   * with `acted: true` only after the model handled it (a lost reply). Several may be pending.
   */
  failRequest(failure: Partial<RequestFailure> & Pick<RequestFailure, 'method' | 'path'>): RequestFailure;
  /** Drop the pending chosen failures. */
  clearFailedRequests(): void;
  /**
   * No-code modules and workspaces (with variables) put straight into the model, as if created through the API
   * and provisioned: benchmarks seed a large fleet this way when the apply is not what they measure.
   */
  addFleet(fleet: Fleet): { noCodeModules: number; workspaces: number };
}

export const OUTCOMES: readonly RunOutcome[] = ['errored', 'canceled', 'discarded', 'no-changes', 'success', 'awaiting-decision', 'pre-plan-awaiting-decision', 'policy-override', 'unlisted-status', 'late-cost-estimate'];

export function createControl(store: Store, engine: RunEngine, limiter: RateLimiter | null, failures: RequestFailures, terraformVersion: string, runLists: RunListRation): TfeControl {
  return {
    failRequest: (failure) => failures.add(failure),
    setRunListRation: (perMinute) => runLists.set(perMinute),
    clearFailedRequests: () => failures.clear(),
    addFleet: (fleet) => addFleet(store, fleet, terraformVersion),
    publishModuleVersion(org, name, provider, version) {
      if (org !== store.organization) throw new Error(`unknown organization ${org}; the sandbox holds ${store.organization}`);
      const now = new Date().toISOString();
      let m = store.moduleByName(org, name, provider);
      if (!m) {
        m = { id: store.ids.next('mod'), name, provider, namespace: org, versions: [], createdAt: now, updatedAt: now };
        store.modules.set(m.id, m);
      }
      if (m.versions.some((v) => v.version === version)) return;
      const inputs = (m.versions[m.versions.length - 1]?.inputs ?? []).map((i) => ({ ...i }));
      const v = { id: store.ids.next('modver'), version, status: 'pending' as const, createdAt: now, updatedAt: now, inputs };
      m.versions.push(v);
      m.updatedAt = now;
      engine.later(() => {
        Object.assign(v, { status: 'ok', updatedAt: new Date().toISOString() });
      });
    },
    setNextRunOutcome(workspaceName, outcome) {
      if (!OUTCOMES.includes(outcome)) throw new Error(`unknown run outcome ${String(outcome)}; use one of ${OUTCOMES.join(', ')}`);
      store.nextOutcomes.set(workspaceName, outcome);
    },
    setManagedResources(workspaceName, n) {
      const ws = store.workspaceByName(workspaceName);
      if (!ws) throw new Error(`no workspace named ${workspaceName}`);
      if (!Number.isInteger(n) || n < 0) throw new Error('managed resources must be a non-negative integer');
      ws.managedResources = n;
    },
    setStepDelay(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error('step delay must be a non-negative number of ms');
      engine.setStepDelay(ms);
    },
    setRunConcurrency(n) {
      if (!Number.isInteger(n) || n < 0) throw new Error('run concurrency must be a whole number (0: no limit)');
      engine.setConcurrency(n);
    },
    decideRun(workspaceName, decision) {
      const ws = store.workspaceByName(workspaceName);
      if (!ws) throw new Error(`no workspace named ${workspaceName}`);
      if (decision !== 'override' && decision !== 'cancel') throw new Error('decision must be override or cancel');
      const run = store.runsOf(ws.id).find((r) => r.status in HELD_RUN_STATES);
      if (!run) throw new Error(`no run of ${workspaceName} waits for a decision`);
      engine.decide(run, decision);
    },
    setRateLimit(perSecond) {
      if (!limiter) throw new Error('the rate limit is off for this simulator (started with rateLimit: false)');
      if (!Number.isInteger(perSecond) || perSecond < 1) throw new Error('the rate limit must be a positive whole number of requests per second');
      limiter.perSecond = perSecond;
    },
  };
}

export const CONTROL_PREFIX = '/__sandbox';

const ENDPOINTS = {
  'GET /__sandbox/log[?service=tfe]': 'request log',
  'DELETE /__sandbox/log': 'clear the request log',
  'GET /__sandbox/faults': 'fault switches',
  'PUT /__sandbox/faults': 'change fault switches (JSON patch of the settings)',
  'POST /__sandbox/module-versions': '{ "organization"?, "name", "provider", "version" }',
  'POST /__sandbox/run-outcomes': '{ "workspace", "outcome": errored|canceled|discarded|no-changes|success|awaiting-decision|pre-plan-awaiting-decision|policy-override|unlisted-status|late-cost-estimate }',
  'POST /__sandbox/failed-requests': '{ "method", "path" (regular expression), "nth"?: 1, "status"?: 500|503, "delayMs"?: 0, "acted"?: false } (fail that one request once)',
  'GET /__sandbox/failed-requests': 'the chosen failures still pending',
  'DELETE /__sandbox/failed-requests': 'drop the chosen failures still pending',
  'POST /__sandbox/run-decisions': '{ "workspace", "decision": override|cancel } (the run held at post_plan_awaiting_decision, pre_plan_awaiting_decision, policy_override or the unlisted state)',
  'PUT /__sandbox/managed-resources': '{ "workspace", "count" }',
  'PUT /__sandbox/step-delay': '{ "ms" }',
  'PUT /__sandbox/run-concurrency': '{ "runs" } (the organization’s concurrent runs; 0: no limit)',
  'PUT /__sandbox/rate-limit': '{ "perSecond" } (the per-token limit; 30 like HCP Terraform)',
  'PUT /__sandbox/run-list-ration': '{ "perMinute": 30 | false } (the run lists’ ration per token; false: off)',
  'POST /__sandbox/fleet': '{ "noCodeModules": [...], "workspaces": [...] } (see fleet-seed.ts; benchmarks)',
};

interface Deps {
  control: TfeControl;
  failures: RequestFailures;
  faults: Faults;
  log: RequestLog;
  store: Store;
}

export function handleControl(path: string, req: IncomingMessage, body: Buffer, res: ServerResponse, query: URLSearchParams, deps: Deps): void {
  const send = (status: number, value: unknown) => {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  const method = req.method ?? 'GET';
  let json: Record<string, unknown> = {};
  if (method !== 'GET' && method !== 'DELETE') {
    try {
      const v: unknown = JSON.parse(body.toString('utf8') || '{}');
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return send(400, { error: 'body must be a JSON object' });
      json = v as Record<string, unknown>;
    } catch (e) {
      return send(400, { error: `body is not JSON: ${(e as Error).message}` });
    }
  }
  const key = `${method} ${path.replace(/\/$/, '')}`;
  try {
    switch (key) {
      case 'GET /__sandbox':
        return send(200, ENDPOINTS);
      case 'GET /__sandbox/log': {
        const service = query.get('service');
        return send(200, service === 'nomad' || service === 'tfe' ? deps.log.summaries({ service }) : deps.log.summaries());
      }
      case 'DELETE /__sandbox/log':
        deps.log.clear();
        return send(200, { cleared: true });
      case 'GET /__sandbox/faults':
        return send(200, deps.faults.current);
      case 'PUT /__sandbox/faults':
      case 'PATCH /__sandbox/faults': {
        const patch = faultPatch(json);
        if (typeof patch === 'string') return send(400, { error: patch });
        deps.faults.set(patch);
        return send(200, deps.faults.current);
      }
      case 'POST /__sandbox/module-versions':
        deps.control.publishModuleVersion(
          typeof json.organization === 'string' ? json.organization : deps.store.organization,
          String(json.name ?? ''),
          String(json.provider ?? ''),
          String(json.version ?? ''),
        );
        return send(200, { published: true });
      case 'POST /__sandbox/run-outcomes':
        deps.control.setNextRunOutcome(String(json.workspace ?? ''), json.outcome as RunOutcome);
        return send(200, { workspace: json.workspace, outcome: json.outcome });
      case 'PUT /__sandbox/managed-resources':
        deps.control.setManagedResources(String(json.workspace ?? ''), Number(json.count));
        return send(200, { workspace: json.workspace, count: json.count });
      case 'PUT /__sandbox/step-delay':
        deps.control.setStepDelay(Number(json.ms));
        return send(200, { ms: json.ms });
      case 'PUT /__sandbox/run-concurrency':
        deps.control.setRunConcurrency(Number(json.runs));
        return send(200, { runs: json.runs });
      case 'POST /__sandbox/run-decisions':
        deps.control.decideRun(String(json.workspace ?? ''), json.decision as 'override' | 'cancel');
        return send(200, { workspace: json.workspace, decision: json.decision });
      case 'POST /__sandbox/failed-requests':
        return send(
          200,
          deps.control.failRequest({
            method: String(json.method ?? ''),
            path: String(json.path ?? ''),
            ...(json.nth !== undefined ? { nth: Number(json.nth) } : {}),
            ...(json.status !== undefined ? { status: Number(json.status) as 500 | 503 } : {}),
            ...(json.delayMs !== undefined ? { delayMs: Number(json.delayMs) } : {}),
            ...(json.retryAfterSeconds !== undefined ? { retryAfterSeconds: Number(json.retryAfterSeconds) } : {}),
            acted: json.acted === true,
          }),
        );
      case 'GET /__sandbox/failed-requests':
        return send(200, deps.failures.list());
      case 'DELETE /__sandbox/failed-requests':
        deps.control.clearFailedRequests();
        return send(200, { cleared: true });
      case 'POST /__sandbox/fleet':
        return send(200, deps.control.addFleet(json as Fleet));
      case 'PUT /__sandbox/run-list-ration':
        deps.control.setRunListRation(json.perMinute === false ? false : Number(json.perMinute));
        return send(200, { perMinute: json.perMinute });
      case 'PUT /__sandbox/rate-limit':
        deps.control.setRateLimit(Number(json.perSecond));
        return send(200, { perSecond: json.perSecond });
      default:
        return send(404, { error: `unknown sandbox endpoint ${key}`, endpoints: ENDPOINTS });
    }
  } catch (e) {
    return send(400, { error: (e as Error).message });
  }
}

function faultPatch(value: Record<string, unknown>): Partial<FaultSettings> | string {
  const out: Partial<FaultSettings> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!(k in NO_FAULTS)) return `unknown fault setting ${JSON.stringify(k)}; known: ${Object.keys(NO_FAULTS).join(', ')}`;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return `${k} must be a non-negative number`;
    if (k.startsWith('rate') && v > 1) return `${k} is a probability between 0 and 1`;
    out[k as keyof FaultSettings] = v;
  }
  return out;
}
