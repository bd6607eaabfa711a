import { ConvergeError } from '../../diagnostics/errors.js';
import type { JsonValue } from '../../model/json.js';
import type { NomadWriteIntent } from '../../plan/intent.js';
import type { PlannedChange } from '../provider.js';

/** The intent of a Nomad create or update (intent.ts); a change planned without one (a bug) fails instead of guessing. */
export function nomadIntentOf(p: PlannedChange): NomadWriteIntent {
  const intent = p.change.intent;
  if (intent?.type !== 'nomad.write.v1') {
    throw new ConvergeError('nomad.intent.missing', `${p.change.kind}/${p.change.name}: the planned ${p.change.action} carries nothing to send`, {
      source: 'internal',
      hint: 'make the plan again with this version of converge',
    });
  }
  return intent;
}

/** The planned body as the wire request type it was built from (intent.ts builds it with that kind's request function). */
export function plannedBody<T>(intent: NomadWriteIntent): T | undefined {
  return intent.body as T | undefined;
}

/** A wire request as plain JSON, for an intent's body (every request type is built from JSON-safe manifest values). */
export function wireJson(body: object): { [key: string]: JsonValue } {
  return body as { [key: string]: JsonValue };
}
