import type { JsonValue } from '../../model/json.js';

/*
 * What apply sends for a NoCodeModule change (one of plan/intent.ts `ApplyIntent`): plain JSON, built at plan time
 * by the kind's remote half and carried by a saved plan.
 */

/** `POST /registry-modules/…/no-code-modules` or `PATCH /no-code-modules/:id` (docs/reference/hcp-terraform-api.md §1.2). */
export interface TfeModuleBody {
  registryModuleId: string;
  versionPin: string;
  enabled: boolean;
  variableOptions: { variableName: string; variableType: string; options: JsonValue[] }[];
}

export interface TfeModuleIntent {
  type: 'tfe.no-code-module.v1';
  /** The whole desired body (the PATCH replaces the set). Absent: only converge's own fields changed; nothing is sent. */
  body?: TfeModuleBody;
}
