import { ConvergeError } from '../diagnostics/errors.js';
import { exportLive, type ExportRun } from '../export/export-live.js';
import { isKind, KINDS, kindsOfProvider } from '../kinds/registry.js';
import type { Kind } from '../model/kinds.js';
import type { ExportSource } from '../providers/provider.js';
import { PROVIDER_MODULES } from '../providers/registry.js';
import { connectInput } from './connect.js';
import type { Settings } from '../model/desired.js';
import type { OperationHost } from './host.js';

export interface ExportRequest {
  /** Only these kinds; every kind of every configured service when empty. */
  kinds?: readonly string[];
  /** HCP Terraform organization (else TFE_ORGANIZATION). */
  organization?: string;
  /** The Settings to connect with (an environment's addresses, `login explain --live --env`); none by default. */
  settings?: Settings;
}

function parseKinds(names: readonly string[] | undefined): Set<Kind> | undefined {
  if (!names || names.length === 0) return undefined;
  const kinds = new Set<Kind>();
  for (const f of names.flatMap((x) => x.split(','))) {
    const k = f.trim();
    if (!isKind(k)) {
      throw new ConvergeError('cli.bad-kind', `--kind ${k}: unknown kind`, { source: 'user', hint: `kinds are ${KINDS.join(', ')}` });
    }
    kinds.add(k);
  }
  return kinds;
}

/**
 * The services to read. Without kinds, every service the environment configures (Nomad: NOMAD_ADDR
 * or NOMAD_TOKEN set; HCP Terraform: a token and an organization); a kind that needs an
 * unconfigured service is an error naming what to set.
 */
function openSources(host: OperationHost, asked: Set<Kind> | undefined, organization: string | undefined, settings: Settings = { spec: {} }): { sources: ExportSource[]; kinds: Set<Kind> } {
  const input = connectInput(host, settings, { purpose: 'export', ...(organization ? { organization } : {}) });
  const sources: ExportSource[] = [];
  const kinds = new Set<Kind>(asked ?? []);
  for (const module of PROVIDER_MODULES) {
    const served = kindsOfProvider(module.id);
    const wanted = asked ? served.some((k) => asked.has(k)) : module.configured(input);
    if (!wanted) continue;
    sources.push(module.exporter(input));
    if (!asked) for (const k of served) kinds.add(k);
  }
  if (sources.length === 0) {
    throw new ConvergeError('export.nothing-configured', 'no service to export from: neither Nomad nor HCP Terraform is configured', {
      source: 'user',
      hint: 'set NOMAD_ADDR and NOMAD_TOKEN, and/or TFE_TOKEN (or terraform login) and TFE_ORGANIZATION, as for `converge plan`',
    });
  }
  return { sources, kinds };
}

/** `converge export` as a library call: live objects as manifest documents. Sends only reads. */
export async function exportObjects(host: OperationHost, req: ExportRequest = {}): Promise<ExportRun> {
  const { sources, kinds } = openSources(host, parseKinds(req.kinds), req.organization, req.settings);
  try {
    host.phase(`exporting: reading ${sources.map((s) => s.description).join(' and ')}`);
    const run = await exportLive(sources, kinds);
    host.endPhase();
    return run;
  } finally {
    host.endPhase();
    await Promise.allSettled(sources.map((s) => s.close()));
  }
}
