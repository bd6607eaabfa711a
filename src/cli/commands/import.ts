import { ConvergeError } from '../../diagnostics/errors.js';
import { importRecord } from '../../export/index.js';
import { loadManifests } from '../../manifest/index.js';
import { addressKey, parseAddress } from '../../model/kinds.js';
import { openStateStore } from '../../state/state-store.js';
import { EXIT, type Host } from '../host.js';
import { reportDiagnostics, stateBackendFor } from '../session.js';
import { openPlanSession } from './plan.js';
import { sourceOf } from '../../engine/index.js';

/**
 * `converge import KIND/NAME [PATHS...]`: records a live object as owned, without a single write to
 * the service. It needs the object's manifest document: the live object is read and matched
 * exactly as a plan would (by name; binding rules by auth method, selector, bind type and bind
 * name), and the record is built the way apply builds one, so the next plan diffs the manifest
 * against what is live. The state is locked while the record is written.
 */
export async function importCommand(host: Host, text: string, paths: string[]): Promise<number> {
  const address = parseAddress(text);
  if (!address) {
    throw new ConvergeError('cli.bad-address', `${text} is not Kind/name`, {
      source: 'user',
      hint: 'write it like NomadAuthMethod/okta; kinds are NomadAuthMethod, NomadBindingRule, NoCodeModule, NoCodeWorkspace',
    });
  }
  const key = addressKey(address);
  const manifests = await loadManifests(paths, { cwd: host.cwd });
  if (!reportDiagnostics(host, manifests.diagnostics, manifests.sources)) return EXIT.error;
  if (!manifests.desired.objects.some((o) => o.kind === address.kind && o.name === address.name)) {
    throw new ConvergeError('import.no-manifest', `no ${address.kind} document named ${address.name} in ${paths.join(' ')}`, {
      source: 'user',
      hint: `import records the object with its manifest: write the document first (\`converge export --kind ${address.kind}\` prints live objects as documents)`,
    });
  }
  const backend = stateBackendFor(host, manifests.desired.settings);
  const store = await openStateStore(backend, { lock: true, operation: 'import', lockTimeoutMs: 0, reporter: host.reporter });
  try {
    const owned = store.get(address);
    if (owned) {
      host.out(`${key} is already owned by converge (id ${owned.id} in ${backend.description}): nothing changed.\n`);
      return EXIT.ok;
    }
    // Taking the object as it is, whatever its fields: what `--adopt` would allow, without the update.
    const session = await openPlanSession(host, paths, { target: [key], exactTargets: true, adopt: [key], state: store.doc });
    if (!session) return EXIT.error;
    try {
      const view = session.run.views.get(key);
      if (!view?.live) {
        const rule = address.kind === 'NomadBindingRule' ? ': no live rule has exactly its auth method, selector, bind type and bind name' : '';
        throw new ConvergeError('import.not-found', `${key} does not exist live${rule}, so there is nothing to import`, {
          source: 'user',
          hint: '`converge apply` creates it from the manifest; `converge export` lists what exists',
        });
      }
      const provider = session.providers.find((pr) => pr.kinds.includes(view.kind));
      if (!provider) throw new ConvergeError('import.no-provider', `no provider serves ${view.kind}`, { source: 'internal' });
      const { record, differences, unverifiedSecrets } = importRecord(provider, view, session.run.views);
      const source = sourceOf(view);
      await store.put(source === undefined ? record : { ...record, source });
      host.out(`Imported ${key} (id ${record.id}) into ${backend.description}. Nothing was sent to the service.\n`);
      if (differences.length > 0) {
        host.out(`The manifest differs from the live object in ${differences.map((f) => f.path).join(', ')}: \`converge plan\` shows the update.\n`);
      }
      if (unverifiedSecrets.length > 0) {
        host.out(
          `Recorded the manifest's value of ${unverifiedSecrets.join(', ')} without comparing it to the live one (the service never returns secrets). ` +
            `If they may differ, \`converge state rm ${key}\` and let \`converge apply\` adopt it: adoption writes the secret.\n`,
        );
      }
      return EXIT.ok;
    } finally {
      await session.close();
    }
  } finally {
    await store.close();
  }
}
