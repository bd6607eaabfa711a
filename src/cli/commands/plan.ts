import { appendFile, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { ConvergeError } from '../../diagnostics/errors.js';
import { parseAddress, type Address } from '../../model/kinds.js';
import { createPlan, toSavedPlan, type PlanRun } from '../../engine/index.js';
import { hasChanges } from '../../plan/types.js';
import { serializePlan } from '../../plan/serialize.js';
import { renderPlanJson } from '../../views/plan-json.js';
import { renderPlanMarkdown } from '../../views/plan-markdown.js';
import { renderPlanText } from '../../views/plan-text.js';
import { EXIT, type Host } from '../host.js';
import { manifestFiles, refuseEmpty } from '../manifest-files.js';
import { closeAll, kindsInPlay, loadValid, providerContext, providersFor, reportDiagnostics, stateBackendFor } from '../session.js';
import type { Provider, ProviderContext } from '../../providers/provider.js';
import type { StateDocument } from '../../state/types.js';

export interface PlanFlags extends Omit<PlanSessionFlags, 'state'> {
  json?: boolean;
  markdown?: boolean;
  detailedExitcode?: boolean;
  out?: string;
}

export function parseTargets(targets: readonly string[] | undefined, flag = '--target'): Address[] {
  return (targets ?? []).map((t) => {
    const a = parseAddress(t);
    if (!a) {
      throw new ConvergeError('cli.bad-target', `${flag} ${t} is not Kind/name`, {
        source: 'user',
        hint: 'write it like NomadAuthMethod/okta; kinds are NomadAuthMethod, NomadBindingRule, NoCodeModule, NoCodeWorkspace',
      });
    }
    return a;
  });
}

export interface PlanSession {
  run: PlanRun;
  providers: Provider[];
  ctx: ProviderContext;
  sources: Map<string, string>;
  /** The saved-plan file text (redacted). */
  saved: () => string;
  close: () => Promise<void>;
}

/** What shapes a plan besides the paths (the flags of plan and apply; a saved plan's recorded ones). */
export interface PlanSessionFlags {
  target?: string[];
  /** Plan the targets without what they depend on (import records one object). */
  exactTargets?: boolean;
  rewrite?: string[];
  adopt?: string[];
  allowEmpty?: boolean;
  refreshOnly?: boolean;
  region?: string;
  state?: StateDocument;
}

/**
 * Loads manifests, reads live state and plans. Sends no writes. Shared by plan, apply and drift.
 * Undefined when diagnostics (already printed) stop the run. The caller closes the session.
 */
export async function openPlanSession(
  host: Host,
  paths: string[],
  opts: PlanSessionFlags,
): Promise<PlanSession | undefined> {
  const targets = parseTargets(opts.target);
  const adopt = parseTargets(opts.adopt, '--adopt');
  const manifests = await loadValid(host, paths);
  if (!manifests) return undefined;
  const state = opts.state ?? (await stateBackendFor(host, manifests.desired.settings).read());
  refuseEmpty(manifests.desired.objects.length, state, paths, opts.allowEmpty === true || opts.refreshOnly === true);
  const files = await manifestFiles(host.cwd, manifests.sources.keys(), state);
  const providers = providersFor(host, kindsInPlay(manifests, state), manifests.desired.settings);
  const ctx = providerContext(host, state);
  const close = () => closeAll(providers);
  try {
    host.phase(`planning: reading live state for ${manifests.desired.objects.length} manifest objects and ${state.records.length} owned`);
    const run = await createPlan({
      desired: manifests.desired,
      providers,
      state,
      ctx,
      options: {
        targets,
        rewrite: parseTargets(opts.rewrite, '--rewrite'),
        adopt,
        files,
        ...(opts.exactTargets === true ? { exactTargets: true } : {}),
        ...(opts.refreshOnly === true ? { refreshOnly: true } : {}),
        ...(opts.region ? { readRegion: opts.region } : {}),
      },
    });
    host.endPhase();
    if (!reportDiagnostics(host, run.plan.diagnostics, manifests.sources)) {
      await close();
      return undefined;
    }
    // Relative to the working directory, as the state's paths are, so a plan saved in one checkout
    // applies in another (CI often plans and applies in different directories).
    const savedPaths = paths.map((p) => relative(host.cwd, resolve(host.cwd, p)) || '.');
    return {
      run,
      providers,
      ctx,
      sources: manifests.sources,
      saved: () => host.redactor.redact(serializePlan(toSavedPlan(run, { paths: savedPaths, targets: opts.target ?? [], rewrite: opts.rewrite ?? [], adopt: opts.adopt ?? [], allowEmpty: opts.allowEmpty === true, refreshOnly: opts.refreshOnly === true }))),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

export async function planCommand(host: Host, paths: string[], opts: PlanFlags): Promise<number> {
  const result = await openPlanSession(host, paths, opts);
  if (!result) return EXIT.error;
  await result.close();
  const { plan } = result.run;
  if (opts.json) host.out(renderPlanJson(plan) + '\n');
  else if (opts.markdown) host.out(renderPlanMarkdown(plan)); // ends in a newline and fits 65 536 as is
  else host.out(renderPlanText(plan, { color: host.color }));
  if (opts.out) {
    await writeFile(resolve(host.cwd, opts.out), result.saved(), { mode: 0o600 });
    host.err(`Saved the plan to ${opts.out}. Apply exactly this plan with: converge apply --plan ${opts.out}\n`);
  }
  await appendStepSummary(host, renderPlanMarkdown(plan, { title: 'converge plan' }));
  if (opts.detailedExitcode && hasChanges(plan)) return EXIT.changes;
  return EXIT.ok;
}

/** GitHub Actions job summary: appended when $GITHUB_STEP_SUMMARY names a file. */
export async function appendStepSummary(host: Host, markdown: string): Promise<void> {
  const file = host.env.GITHUB_STEP_SUMMARY;
  if (host.env.GITHUB_ACTIONS !== 'true' || !file) return;
  await appendFile(file, host.redactor.redact(markdown) + '\n');
}
