import { importObject } from '../../operations/import.js';
import { EXIT, type Host } from '../host.js';

/** `converge import KIND/NAME [PATHS...]`: see operations/import.ts. Prints what was recorded and what differs. */
export async function importCommand(host: Host, text: string, paths: string[]): Promise<number> {
  const r = await importObject(host, { address: text, paths });
  if (r.status === 'invalid') return EXIT.error;
  if (r.status === 'already-owned') {
    host.out(`${r.key} is already owned by converge (id ${r.record.id} in ${r.state}): nothing changed.\n`);
    return EXIT.ok;
  }
  host.out(`Imported ${r.key} (id ${r.record.id}) into ${r.state}. Nothing was sent to the service.\n`);
  if (r.differences.length > 0) {
    host.out(`The manifest differs from the live object in ${r.differences.map((f) => f.path).join(', ')}: \`converge plan\` shows the update.\n`);
  }
  if (r.ownerTag !== null) {
    host.out(`It does not carry this state's owner tag yet: the next \`converge apply\` tags it ${r.ownerTag}, so no other state takes it.\n`);
  }
  if (r.unverifiedSecrets.length > 0) {
    host.out(
      `Recorded the manifest's value of ${r.unverifiedSecrets.join(', ')} without comparing it to the live one (the service never returns secrets). ` +
        `If they may differ, \`converge state rm ${r.key}\` and let \`converge apply\` adopt it: adoption writes the secret.\n`,
    );
  }
  return EXIT.ok;
}
