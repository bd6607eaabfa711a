import type { TfeModuleIntent } from '../kinds/no-code-module/intent.js';
import type { TfeWorkspaceIntent } from '../kinds/no-code-workspace/intent.js';
import type { JsonValue } from '../model/json.js';

/*
 * What apply sends for one change, decided when the plan is made. A provider puts it in
 * the change at refine time, from what load read (remote ids, variable ids, resolved names); apply
 * sends it as it is, with no second diff and no lookup of its own. Plain JSON, so a saved plan carries
 * exactly what will be sent. Never a secret value: a sensitive value is a reference to the manifest,
 * resolved when the request is sent.
 *
 * Additive to plan format 1.0: a change without `intent` (an older saved plan, a kind whose provider
 * builds none) is applied from its view as before. `type` names the provider and kind; a shape
 * change takes a new `type`, so an older converge never misreads a newer intent. A kind's own intent
 * type lives in its folder (`src/kinds/<kind>/intent.ts`).
 */
export type ApplyIntent = TfeModuleIntent | TfeWorkspaceIntent | NomadWriteIntent;


/**
 * A Nomad create or update: the request body as sent (docs/reference/nomad-api.md), each secret left
 * empty and named in `secrets` by its manifest field, for apply to fill from the manifest when it sends.
 * The kind's remote half builds the body and names the secrets. No body: only converge's own fields
 * changed (protect); nothing is sent and the record is updated.
 */
export interface NomadWriteIntent {
  type: 'nomad.write.v1';
  /** The server-made id an update is sent to, for a kind addressed by id rather than by name. */
  id?: string;
  body?: { [key: string]: JsonValue };
  secrets?: string[];
}
