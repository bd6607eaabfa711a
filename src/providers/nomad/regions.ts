import { ConvergeError } from '../../diagnostics/errors.js';
import type { NomadClient } from './client.js';

/**
 * Every region converge is asked to read (`nomad.region` in Settings, `--region`) must be one the
 * cluster knows (`GET /v1/regions`). Nomad answers an unknown `?region=` with `500 No path to region`
 * (nomad/structs/errors.go ErrNoRegionPath), which the retry policy would take for a passing fault and
 * retry for seconds; and a `--region` comparison that fails was only a warning, so the run exited 0.
 */
export async function checkRegions(client: NomadClient, asked: ReadonlyArray<{ region: string; from: string }>): Promise<void> {
  if (asked.length === 0) return;
  const known = await client.listRegions();
  for (const { region, from } of asked) {
    if (known.includes(region)) continue;
    throw new ConvergeError('nomad.unknown-region', `Nomad knows no region "${region}" (${from}); its regions: ${known.join(', ') || '(none)'}`, {
      source: 'user',
      hint: `name one of ${known.map((r) => `"${r}"`).join(', ')} (\`nomad server members\` lists them too)`,
    });
  }
}
