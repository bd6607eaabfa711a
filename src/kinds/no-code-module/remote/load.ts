import type { Diagnostic } from '../../../diagnostics/types.js';
import type { DesiredObject } from '../../../model/desired.js';
import type { Note } from '../../../plan/codes.js';
import type { StateRecord } from '../../../state/types.js';
import type { DesiredView, ObjectView } from '../../../providers/provider.js';
import { mapLimit } from '../../../async/map-limit.js';
import type { TfeKindLoad, TfeLoadScope } from '../../../providers/tfe/kind-remote.js';
import { byName, errorAt, namesOf, textOf } from '../../../providers/tfe/load.js';
import { parseSourceModuleId } from '../../../providers/tfe/mapping.js';
import { READ_CONCURRENCY, type TfeSession } from '../../../providers/tfe/session.js';
import { NoCodeModulesClient } from './endpoints.js';
import { desiredModuleFields, latestVersion, liveModuleFields, registryPath } from './mapping.js';
import { RegistryModulesClient } from './registry-modules.js';
import type { RegistryModuleWire } from './wire.js';

/*
 * A NoCodeModule's load: ONE paginated registry-modules list with include=no-code-modules, then one read of each
 * no-code module that exists (docs/reference/hcp-terraform-api.md §1.5: there is no no-code module list).
 */

type ModuleDesired = DesiredObject<'NoCodeModule'>;

/** The NoCodeModule views of the batch (a kind's load, kind-remote.ts). */
export async function loadModuleViews(scope: TfeLoadScope): Promise<TfeKindLoad> {
  const { session, input } = scope;
  const views: ObjectView[] = [];
  const diagnostics: Diagnostic[] = [];
  const modules = input.desired.filter((d): d is ModuleDesired => d.kind === 'NoCodeModule');
  const moduleRecords = input.records.filter((r) => r.kind === 'NoCodeModule');
  const wsRecords = input.records.filter((r) => r.kind === 'NoCodeWorkspace');
  await loadModules(session, modules, moduleRecords, views, diagnostics, new Set(wsRecords.map((r) => r.name)));
  return { views, diagnostics };
}

async function loadModules(
  session: TfeSession,
  desired: readonly ModuleDesired[],
  records: readonly StateRecord[],
  views: ObjectView[],
  diagnostics: Diagnostic[],
  ownedWorkspaces: ReadonlySet<string>,
): Promise<void> {
  const names = namesOf(desired, records);
  if (names.length === 0) return;
  const { client, organization } = session;
  const noCodeModules = new NoCodeModulesClient(client);
  const registry = (await new RegistryModulesClient(client).listRegistryModules()).filter((m) => m.registryName === 'private');
  const byPath = new Map<string, RegistryModuleWire>(registry.map((m) => [registryPath(m), m]));
  const byId = new Map<string, RegistryModuleWire>(registry.map((m) => [m.id, m]));
  const desiredByName = byName(desired);
  const recordByName = byName(records);

  const reads = await mapLimit(names, READ_CONCURRENCY, async (name) => {
    const d = desiredByName.get(name);
    const r = recordByName.get(name);
    const path = d?.spec.registryModule ?? textOf(r?.applied.registryModule) ?? '';
    const rm = byPath.get(path);
    // The registry module names its no-code module (0 or 1, docs/reference/hcp-terraform-api.md §1.5). A recorded id is
    // read only when the registry module itself is gone (then the no-code module likely is too).
    const id = rm ? (rm.noCodeModuleIds[0] ?? null) : (r?.id ?? null);
    const live = id === null ? null : await noCodeModules.readNoCodeModule(id, { what: `no-code module ${id} (${path})`, ...(d ? { desired: d } : {}) });
    return { name, d, r, path, rm, live };
  });

  const usedOutside = await workspacesOutsideState(
    session,
    reads.filter((x) => x.r && !x.d && x.live).map((x) => x.path),
    ownedWorkspaces,
  );
  for (const { name, d, r, path, rm, live } of reads) {
    const notes: Note[] = [];
    const latest = rm ? latestVersion(rm.versions) : null;
    let resolvedPin: string | null = null;
    let desiredView: DesiredView | undefined;
    if (d) {
      if (!rm) {
        diagnostics.push(
          errorAt(
            d,
            '/spec/registryModule',
            'tfe.module.registry-module-unknown',
            `registry module ${path} is not in the private registry of organization ${organization} (or the token cannot see it)`,
            `publish it to the private registry first, or fix spec.registryModule (namespace/name/provider); modules there: ${
              [...byPath.keys()].slice(0, 10).join(', ') || 'none'
            }`,
          ),
        );
      }
      if (d.spec.versionPin !== undefined) {
        resolvedPin = d.spec.versionPin;
        if (rm && !rm.versions.some((v) => v.version === d.spec.versionPin && v.status === 'ok')) {
          diagnostics.push(
            errorAt(
              d,
              '/spec/versionPin',
              'tfe.module.version-unknown',
              `version ${d.spec.versionPin} of ${path} is not available in the registry`,
              `available versions: ${rm.versions.filter((v) => v.status === 'ok').map((v) => v.version).join(', ') || 'none'} (HCP Terraform refuses a version that is still being ingested with 422)`,
            ),
          );
        }
      } else if (rm) {
        resolvedPin = latest;
        if (latest === null) {
          diagnostics.push(errorAt(d, '/spec/versionPin', 'tfe.module.no-versions', `${path} has no usable version in the registry`, 'publish a version, or wait for its ingestion to finish'));
        } else {
          notes.push({ code: 'version-unpinned', latest });
        }
      }
      // The registry module id goes into the create's intent (a module with no no-code module yet).
      desiredView = { object: d, fields: desiredModuleFields(d.spec, resolvedPin), secrets: {}, ...(rm ? { ids: { registryModuleId: rm.id } } : {}) };
    }
    const liveRegistry = live?.module.registryModuleId ? byId.get(live.module.registryModuleId) : undefined;
    const liveView = live
      ? {
          id: live.module.id,
          fields: liveModuleFields(live.module, live.options, liveRegistry ? registryPath(liveRegistry) : path, latest),
          extra: {
            registryModuleId: live.module.registryModuleId ?? rm?.id ?? null,
            registryModule: liveRegistry ? registryPath(liveRegistry) : path,
            latest,
            ...(r && !d && (usedOutside.get(path)?.length ?? 0) > 0 ? { inUseOutsideState: usedOutside.get(path) ?? [] } : {}),
          },
        }
      : undefined;
    views.push({
      kind: 'NoCodeModule',
      name,
      ...(desiredView ? { desired: desiredView } : {}),
      ...(liveView ? { live: liveView } : {}),
      ...(r ? { record: r } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    });
  }
}

/**
 * For no-code modules this state owns but no longer has a document for (a delete, when in scope): the live
 * workspaces made from them that this state does not own, by module path. Deleting the module would leave
 * another state's (or a person's) workspaces without their module, so the engine refuses such a delete
 * (decisions.md §27). One paged list of the organization's workspaces, only when such a module exists.
 */
async function workspacesOutsideState(session: TfeSession, paths: readonly string[], owned: ReadonlySet<string>): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  if (paths.length === 0) return found;
  const wanted = new Set(paths);
  for await (const { workspaces } of session.client.workspaces.workspacePages()) {
    for (const w of workspaces) {
      const path = parseSourceModuleId(w.sourceModuleId)?.path;
      if (path === undefined || !wanted.has(path) || owned.has(w.name)) continue;
      found.set(path, [...(found.get(path) ?? []), w.name]);
    }
  }
  return found;
}

