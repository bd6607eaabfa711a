import { relative, resolve } from 'node:path';
import { ConvergeError, errorMessage } from '../diagnostics/errors.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics/types.js';
import { createPlan, toSavedPlan, type PlanRun } from '../engine/index.js';
import { KINDS, parseAddress } from '../kinds/registry.js';
import type { ManifestLoadResult } from '../manifest/index.js';
import { addressKey, WORKSPACE_SET_KIND, type Address, type Kind } from '../model/kinds.js';
import type { Provider, ProviderContext } from '../providers/provider.js';
import { serializePlan } from '../plan/serialize.js';
import type { PlanNotice } from '../plan/types.js';
import type { StateDocument } from '../state/types.js';
import { closeAll, kindsInPlay, loadForRun, providerContext, providersFor, stateBackendFor, stateRoot } from './connect.js';
import type { OperationHost } from './host.js';
import { manifestFiles, refuseEmpty } from './manifest-files.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { planLoginTests } from '../login/plan-results.js';

export interface PlanRequest {
  /** Manifest files or directories (default `.`). */
  paths: string[];
  /** `Kind/name` addresses to limit the plan to. */
  targets?: string[];
  /** `Kind/name` addresses to send whole again, secrets included (settles hidden drift). */
  rewrite?: string[];
  /** Also read this Nomad region and report its replication lag. */
  region?: string;
  /** `Kind/name` of unowned live objects to take over although their readable fields differ. */
  adopt?: string[];
  /** Consent to every adoption of the plan in a new or named state (decisions.md §27). */
  adoptAll?: boolean;
  /** Plan from no documents at all while the state owns objects (deletes whatever has no file left). */
  allowEmpty?: boolean;
  /** Only accept live values into the state: nothing is created, updated or deleted. */
  refreshOnly?: boolean;
  /**
   * Plan the deletion of every owned object in scope (the given paths, `--target` and what depends on the
   * targets), as if their documents were gone: `plan --destroy`, `converge destroy` (decisions.md §30).
   */
  destroy?: boolean;
  /** `--deletion POLICY` (destroy only): every workspace deleted in this run is deleted under this policy. */
  deletion?: 'safe' | 'destroy' | 'orphan';
  /** Plan the targets without what they depend on (import records one object). */
  exactTargets?: boolean;
}

/** A plan made and its providers still open (apply and import go on with them); the caller closes it. */
export interface PlanSession {
  run: PlanRun;
  providers: Provider[];
  ctx: ProviderContext;
  manifests: ManifestLoadResult;
  /** The saved-plan file text (`plan --out`), redacted. */
  saved(): string;
  close(): Promise<void>;
}

export interface PlanResult {
  run: PlanRun;
  /** Display path → file text of every manifest read, for rendering source lines. */
  sources: Map<string, string>;
  /** The saved-plan file text (`plan --out`), redacted; made when first read. */
  readonly saved: string;
}

/** The workspaces each NoCodeWorkspaceSet of the manifests generated, by set name (`--target NoCodeWorkspaceSet/<name>`). */
export type SetMembers = ReadonlyMap<string, Address[]>;

export function setMembers(manifests: ManifestLoadResult): SetMembers {
  const members = new Map<string, Address[]>();
  for (const o of manifests.desired.objects) {
    if (o.origin === undefined) continue;
    members.set(o.origin.set, [...(members.get(o.origin.set) ?? []), { kind: o.kind, name: o.name }]);
  }
  return members;
}

/** `NoCodeWorkspaceSet/<name>` (the kind in any case): the set's name, else undefined. */
function setTargetName(text: string): string | undefined {
  const slash = text.indexOf('/');
  return slash > 0 && text.slice(0, slash).toLowerCase() === WORKSPACE_SET_KIND.toLowerCase() && slash < text.length - 1 ? text.slice(slash + 1) : undefined;
}

/**
 * `Kind/name` addresses; with `--target`, `NoCodeWorkspaceSet/<name>` stands for every workspace the set
 * generates (`sets`; left out before the manifests are read, when only the form is checked).
 */
export function parseTargets(targets: readonly string[] | undefined, flag = '--target', sets?: SetMembers): Address[] {
  return (targets ?? []).flatMap((t) => {
    const set = flag === '--target' ? setTargetName(t) : undefined;
    if (set !== undefined) {
      if (sets === undefined) return [];
      const members = sets.get(set);
      if (members === undefined) {
        const close = didYouMean(set, [...sets.keys()]);
        throw new ConvergeError('cli.unknown-set', `${flag} ${t} names no NoCodeWorkspaceSet of the manifests that generates workspaces`, {
          source: 'user',
          hint: close !== undefined ? `did you mean ${flag} ${WORKSPACE_SET_KIND}/${close}?` : `sets here: ${[...sets.keys()].join(', ') || 'none'}`,
        });
      }
      return members;
    }
    const a = parseAddress(t) ?? parseAddress(withKindSpelled(t));
    if (!a) {
      const kind = t.includes('/') ? t.slice(0, t.indexOf('/')) : t;
      const close = didYouMean(kind, KINDS);
      throw new ConvergeError('cli.bad-target', `${flag} ${t} is not Kind/name`, {
        source: 'user',
        hint: close !== undefined && t.includes('/') ? `did you mean ${flag} ${close}${t.slice(t.indexOf('/'))}?` : `write it like ${KINDS[0]}/okta; kinds are ${KINDS.join(', ')}${flag === '--target' ? `; ${WORKSPACE_SET_KIND}/<name> takes a set's workspaces` : ''}`,
      });
    }
    return a;
  });
}

/** `somekind/name` → `SomeKind/name`: a kind written in another case is still that kind (names keep their case). */
function withKindSpelled(text: string): string {
  const slash = text.indexOf('/');
  const kind = KINDS.find((k) => k.toLowerCase() === text.slice(0, Math.max(0, slash)).toLowerCase());
  return kind === undefined ? text : `${kind}${text.slice(slash)}`;
}

/** Every address flag, checked before anything is read. */
export function checkAddresses(req: PlanRequest): void {
  parseTargets(req.targets);
  parseTargets(req.rewrite, '--rewrite');
  parseTargets(req.adopt, '--adopt');
  if (req.deletion !== undefined && req.destroy !== true) {
    throw new ConvergeError('cli.deletion-without-destroy', `--deletion ${req.deletion} applies only to a destroy plan`, {
      source: 'user',
      hint: 'use it with `converge plan --destroy` or `converge destroy`; to change a workspace\'s policy for good, set `deletion:` in its manifest and apply',
    });
  }
  if (req.deletion !== undefined && !['safe', 'destroy', 'orphan'].includes(req.deletion)) {
    throw new ConvergeError('cli.bad-deletion', `--deletion ${String(req.deletion)} is not a deletion policy`, { source: 'user', hint: 'write --deletion safe, --deletion destroy or --deletion orphan' });
  }
  if (req.destroy === true && (req.refreshOnly === true || (req.rewrite ?? []).length > 0 || (req.adopt ?? []).length > 0 || req.adoptAll === true)) {
    throw new ConvergeError('cli.destroy-with-writes', 'a destroy plan only deletes: it cannot be combined with --refresh-only, --rewrite, --adopt or --adopt-all', { source: 'user', hint: 'run the destroy alone' });
  }
}

/**
 * Plans manifests already loaded against a state already read: connects the providers for the kinds
 * in play, reads live state (no writes), diffs. Undefined when plan-time diagnostics (handed to the
 * host) stop the run.
 */
export async function planLoaded(host: OperationHost, manifests: ManifestLoadResult, state: StateDocument, req: PlanRequest, location: string): Promise<PlanSession | undefined> {
  const targets = parseTargets(req.targets, '--target', setMembers(manifests));
  const rewrite = parseTargets(req.rewrite, '--rewrite');
  const adopt = parseTargets(req.adopt, '--adopt');
  refuseEmpty(manifests.desired.objects.length, state, req.paths, req.allowEmpty === true || req.refreshOnly === true || req.destroy === true);
  const files = await manifestFiles(stateRoot(host, manifests.desired.settings), host.cwd, manifests.sources.keys(), state);
  const providers = providersFor(host, kindsInPlay(manifests, state), manifests.desired.settings);
  const ctx = providerContext(host, state);
  const close = () => closeAll(providers);
  try {
    host.phase(`planning: reading live state for ${manifests.desired.objects.length} manifest ${manifests.desired.objects.length === 1 ? 'object' : 'objects'} and ${state.records.length} owned`);
    const run = await createPlan({
      desired: manifests.desired,
      providers,
      state,
      ctx,
      options: {
        targets,
        rewrite,
        adopt,
        files,
        ...(req.exactTargets === true ? { exactTargets: true } : {}),
        ...(req.refreshOnly === true ? { refreshOnly: true } : {}),
        ...(req.destroy === true ? { destroy: true } : {}),
        ...(req.deletion !== undefined ? { deletion: req.deletion } : {}),
        ...(req.region ? { readRegion: req.region } : {}),
      },
    });
    host.endPhase();
    const stateName = manifests.desired.settings.spec.state?.name;
    if (manifests.loginTests) run.plan.loginTests = planLoginTests(manifests.loginTests, manifests.desired.objects, [...run.views.values()]);
    const environment = manifests.desired.settings.environment?.name;
    if (environment !== undefined) run.plan.environment = environment;
    run.plan.state = { location, records: state.records.length, new: state.serial === 0, ...(stateName !== undefined ? { name: stateName } : {}) };
    const consent = adoptionConsentNotice(run, state, stateName, location, req);
    if (consent) run.plan.notices = [consent, ...(run.plan.notices ?? [])];
    if (run.plan.diagnostics.length > 0) host.diagnostics(run.plan.diagnostics, manifests.sources);
    if (hasErrors(run.plan.diagnostics)) {
      await close();
      return undefined;
    }
    // Relative to the working directory, as the state's paths are, so a plan saved in one checkout
    // applies in another (CI often plans and applies in different directories).
    const savedPaths = req.paths.map((p) => relative(host.cwd, resolve(host.cwd, p)) || '.');
    return {
      run,
      providers,
      ctx,
      manifests,
      saved: () =>
        host.redactor.redactForms(
          serializePlan(
            toSavedPlan(run, {
              paths: savedPaths,
              targets: req.targets ?? [],
              rewrite: req.rewrite ?? [],
              adopt: req.adopt ?? [],
              adoptAll: req.adoptAll === true,
              allowEmpty: req.allowEmpty === true,
              refreshOnly: req.refreshOnly === true,
              destroy: req.destroy === true,
              ...(req.deletion !== undefined ? { deletion: req.deletion } : {}),
            }),
          ),
        ),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Taking over existing objects needs consent in a state that may not be theirs (decisions.md §27): a new
 * state (never written: a wrong `state.path`, a directory without the Settings document, a lost state) or a
 * named one (a name says "this team's objects", and another team's state may own these). Consent is
 * `--adopt-all`, `--adopt Kind/name` per object, or `converge import`; without it the plan says so first
 * and apply refuses in a run that asks nobody. An unnamed state that already owns objects keeps adopting
 * matching ones by itself (decisions.md §9).
 */
function adoptionConsentNotice(run: PlanRun, state: StateDocument, stateName: string | undefined, location: string, req: PlanRequest): PlanNotice | undefined {
  // New: never written (serial 0), or holding only the marks of creates a killed first apply sent (§28). A state
  // emptied by its own deletes, or one whose first apply was killed after its first record, is not: it adopts what
  // a crash left unrecorded by itself, as before (decisions.md §15).
  const sent = state.sent ?? [];
  const isNew = state.records.length === 0 && (state.serial === 0 || sent.length > 0);
  const why = stateName !== undefined ? 'named-state' : isNew ? 'new-state' : undefined;
  if (why === undefined || req.adoptAll === true) return undefined;
  // What this state itself sent a create for is its own: a rerun after a kill takes it without asking (§28).
  const consented = new Set([...parseTargets(req.adopt, '--adopt').map(addressKey), ...sent.map(addressKey)]);
  const objects = new Map<string, { kind: Kind; name: string }>();
  for (const { change, view } of run.planned) {
    const key = addressKey(view);
    const adopting = change.action === 'no-op' ? change.adopt === true : change.action === 'update' || change.action === 'upgrade';
    if (adopting && view.live && view.desired && !view.record && !consented.has(key)) objects.set(key, { kind: view.kind, name: view.name });
  }
  return objects.size === 0 ? undefined : { code: 'adoption-needs-consent', why, state: location, objects: [...objects.values()] };
}

/**
 * Loads and validates the manifests for a plan or an apply; hands problems to the host. Undefined when there are
 * errors (nothing is sent then). Manifest errors do not hide the live checks (a registry module, a version, a
 * project, an agent pool, a policy or auth method the service does not know): those still run on the documents
 * that passed their schema, read-only, so one run reports every problem at once instead of one category per run
 * (a workspace's missing module document, then its unknown project, then its module's bad version).
 */
export async function loadForPlan(host: OperationHost, req: PlanRequest): Promise<ManifestLoadResult | undefined> {
  const manifests = await loadForRun(host, req.paths, { env: host.env });
  if (!hasErrors(manifests.diagnostics)) {
    if (manifests.diagnostics.length > 0) host.diagnostics(manifests.diagnostics, manifests.sources);
    return manifests;
  }
  const live = await liveProblemsDespite(host, manifests, req);
  host.diagnostics(sortDiagnostics([...manifests.diagnostics, ...live]), manifests.sources);
  return undefined;
}

/**
 * The plan-time (live) problems of manifests that have errors. Only with a valid Settings document free of
 * errors (it says where the services and the state are) and every secret reference resolvable; a problem at a place a manifest error already points
 * at is left out (one mistake, one message); when the checks cannot run (no credentials, a service out of
 * reach) a warning says why and the manifest errors stand alone.
 */
async function liveProblemsDespite(host: OperationHost, manifests: ManifestLoadResult, req: PlanRequest): Promise<Diagnostic[]> {
  const { settings, objects } = manifests.desired;
  const errors = manifests.diagnostics.filter((d) => d.severity === 'error');
  const inSettings = (d: Diagnostic) =>
    settings.range !== undefined && d.range?.file === settings.range.file && d.range.start.line >= settings.range.start.line && d.range.start.line <= settings.range.end.line;
  // A secret the environment lacks says this environment is not ready for a run: nothing is read either.
  const blocking = (d: Diagnostic) => d.range === undefined || inSettings(d) || d.code.startsWith('secret.');
  if (settings.range === undefined || objects.length === 0 || errors.some(blocking)) return [];
  const at = new Set(errors.map((d) => `${d.range?.file}:${d.range?.start.line}:${d.range?.start.col}`));
  let providers: Provider[] = [];
  try {
    const state = await stateBackendFor(host, settings).read();
    providers = providersFor(host, kindsInPlay(manifests, state), settings);
    host.phase(`planning: checking ${objects.length} manifest ${objects.length === 1 ? 'object' : 'objects'} against the live services`);
    const run = await createPlan({
      desired: manifests.desired,
      providers,
      state,
      ctx: providerContext(host, state),
      options: { targets: parseTargets(req.targets, '--target', setMembers(manifests)), rewrite: [], adopt: [], files: await manifestFiles(stateRoot(host, settings), host.cwd, manifests.sources.keys(), state) },
    });
    return run.plan.diagnostics.filter((d) => !at.has(`${d.range?.file}:${d.range?.start.line}:${d.range?.start.col}`));
  } catch (e) {
    return [
      {
        severity: 'warning',
        code: 'plan.live-checks-not-run',
        summary: `the manifests were not checked against the live services: ${errorMessage(e)}`,
        detail: 'Fix the manifest errors; the next plan checks them against the live services too.',
      },
    ];
  } finally {
    host.endPhase();
    await closeAll(providers);
  }
}

/** Loads the manifests once, reads the state (no lock: nothing is written) and plans. */
export async function openPlan(host: OperationHost, req: PlanRequest): Promise<PlanSession | undefined> {
  checkAddresses(req);
  const manifests = await loadForPlan(host, req);
  if (!manifests) return undefined;
  const backend = stateBackendFor(host, manifests.desired.settings);
  return planLoaded(host, manifests, await backend.read(), req, backend.description);
}

/**
 * `converge plan` as a library call: what apply would change, plus drift since the last apply.
 * Sends no writes. Undefined when diagnostics (handed to the host) stop the run.
 */
export async function plan(host: OperationHost, req: PlanRequest): Promise<PlanResult | undefined> {
  const session = await openPlan(host, req);
  if (!session) return undefined;
  await session.close();
  let saved: string | undefined;
  return {
    run: session.run,
    sources: session.manifests.sources,
    // Serialised when first read (plan --out): for 10 000 objects it is megabytes of strings, made at the
    // end of the run (the peak of a large plan) and dropped unread by every plan without --out.
    get saved() {
      saved ??= session.saved();
      return saved;
    },
  };
}

/** `converge drift`: the same read-only plan, rendered as drift by the caller. */
export const drift = plan;
