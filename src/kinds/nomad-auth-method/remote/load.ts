import type { Diagnostic } from '../../../diagnostics/types.js';
import type { DesiredObject } from '../../../model/desired.js';
import { diffFields } from '../../../plan/diff.js';
import type { HiddenChange } from '../../../plan/codes.js';
import type { LiveView } from '../../../providers/provider.js';
import { desiredAuthMethodView } from './desired.js';
import { joinByName, readLiveByHash } from '../../../providers/nomad/join-by-name.js';
import { liveAuthMethodFields } from './mapping.js';
import { ofKind, type KindLoad, type NomadLoadContext } from '../../../providers/nomad/kind-remote.js';
import { knownNames, type Known } from '../../../providers/nomad/known-names.js';
import { listAuthMethods, readAuthMethod } from './endpoints.js';
import type { WireAuthMethod, WireAuthMethodStub } from './wire.js';

export const HIDDEN_CHANGE: HiddenChange = { code: 'secret-hash-moved' };

export interface AuthMethodLoad extends KindLoad {
  diagnostics: Diagnostic[];
  /** Every method's name: binding rules check theirs against it. */
  known: Known;
  /** One live method, read when a later kind needs more than its name (a templated bind name's claim mappings). */
  read(name: string): Promise<WireAuthMethod | undefined>;
}

declare module '../../../providers/nomad/kind-remote.js' {
  interface NomadLoadByKind {
    NomadAuthMethod: AuthMethodLoad;
  }
}

/**
 * Auth methods: ONE list call (stubs carry Hash, docs/reference/nomad-api.md §2), then a full GET only for
 * desired or owned methods whose Hash moved since converge's last write. An unchanged fleet costs one
 * request, not N+1: a matching Hash means nothing user-set changed (§1.2 SetHash covers every
 * user-set field), so the fields converge last applied are the live fields.
 */
export async function loadAuthMethods({ session, call, provider: ctx, ...run }: NomadLoadContext): Promise<AuthMethodLoad> {
  const { desired, records } = ofKind(run, 'NomadAuthMethod');
  const diagnostics: Diagnostic[] = [];
  const stubs = await listAuthMethods(session.client, call);
  const named = joinByName('NomadAuthMethod', desired, records);
  for (const { view, object } of named) {
    if (!object) continue;
    const d = await desiredAuthMethodView(object, ctx.secrets);
    view.desired = d.view;
    diagnostics.push(...d.diagnostics);
  }
  const views = named.map((n) => n.view);
  await readLiveByHash(
    views,
    stubs,
    (name) => readAuthMethod(session.client, name, call),
    (wire, view) => {
      const live: LiveView = { id: view.name, fields: liveAuthMethodFields(wire), extra: { hash: wire.Hash } };
      const record = view.record;
      const recordedHash = record?.extra.hash;
      // The Hash covers secrets too (§1.2); when it moved but every field we can see is as we left it,
      // a field we cannot see (the client secret, §5) was probably rewritten: e.g. a read-modify-write
      // that stored the literal `redacted` (§5, `nomad acl auth-method update`). Only "possibly": the
      // Hash walks maps in Go's random order (§12), so a rewrite with the same content can move it too.
      // Hence drift of a hidden field, never a planned change. No recorded hash (a server that sent
      // none) means nothing can be said.
      if (record && typeof recordedHash === 'string' && recordedHash !== '' && recordedHash !== wire.Hash && diffFields(record.applied, live.fields).length === 0) {
        live.hiddenChange = HIDDEN_CHANGE;
      }
      return live;
    },
  );

  diagnostics.push(...defaultConflicts(stubs, desired, new Set(records.map((r) => r.name))));
  return {
    views,
    diagnostics,
    known: knownNames(desired, records, new Set(stubs.map((s) => s.Name))),
    read: (name) => readAuthMethod(session.client, name, call),
    replica: stubs.map((s) => ({ key: s.Name, Hash: s.Hash })),
  };
}

/**
 * Nomad allows one default across all types (§4). A desired `default: true` while the live default
 * is a method converge will neither unset nor delete would fail at apply with
 * `default method already exists`: say so at plan time, at the document's `default` line.
 */
function defaultConflicts(stubs: WireAuthMethodStub[], desired: DesiredObject<'NomadAuthMethod'>[], recorded: ReadonlySet<string>): Diagnostic[] {
  const wanting = desired.filter((d) => d.spec.default === true);
  if (wanting.length === 0) return [];
  const desiredNames = new Set(desired.map((d) => d.name));
  const out: Diagnostic[] = [];
  for (const stub of stubs) {
    if (!stub.Default) continue;
    const handled = desiredNames.has(stub.Name) || recorded.has(stub.Name);
    if (handled) continue;
    for (const d of wanting) {
      if (d.name === stub.Name) continue;
      out.push({
        severity: 'error',
        code: 'nomad.auth-method.default-taken',
        summary: `NomadAuthMethod/${d.name} cannot become the default: ${stub.Name} is Nomad's default auth method and converge does not manage it`,
        detail: `Nomad allows one default auth method across all types. Unset it first (\`nomad acl auth-method update -default=false ${stub.Name}\`), or add a manifest for ${stub.Name} with default: false`,
        range: d.positions['/spec/default'] ?? d.range,
      });
    }
  }
  return out;
}
