import type { TfeModuleIntent } from '../kinds/no-code-module/intent.js';
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
 * A variable's value as sent: plain text, or `manifest` for a sensitive value, which apply resolves
 * from the variable of the same category and key in the manifest when it sends the request.
 */
export type TfeVariableValue = { text: string } | { manifest: true };

export interface TfeVariable {
  key: string;
  category: string;
  description: string;
  hcl: boolean;
  sensitive: boolean;
  value: TfeVariableValue;
}

/** One variable request; ids are the live ones the plan read (docs/reference/hcp-terraform-api.md §6). */
export type TfeVariableOp =
  | { op: 'create'; variable: TfeVariable }
  | { op: 'update'; id: string; variable: TfeVariable }
  /** Sensitive → plain: the service never lets a sensitive value be read back, so delete then create. */
  | { op: 'replace'; id: string; variable: TfeVariable }
  | { op: 'delete'; id: string; key: string; category: string };

/** Attributes of `PATCH /workspaces/:id` that change; omitted ones keep their value (docs/reference/hcp-terraform-api.md §5). */
export interface TfeWorkspaceSettings {
  /** A rename (a Moved document). */
  name?: string;
  description?: string;
  executionMode?: string;
  agentPoolId?: string | null;
  autoApply?: boolean;
  sourceName?: string | null;
  sourceUrl?: string | null;
  projectId?: string;
}

/** `POST /no-code-modules/:id/workspaces` (docs/reference/hcp-terraform-api.md §2), variables apart. */
export interface TfeWorkspaceCreate {
  /** The NoCodeModule the workspace runs. */
  module: string;
  /** Its id when live at plan time; null when it is created in the same apply, which records the id apply takes. */
  moduleId: string | null;
  name: string;
  description: string;
  executionMode: string;
  agentPoolId: string | null;
  autoApply: boolean;
  sourceName: string | null;
  sourceUrl: string | null;
  projectId: string | null;
  variables: TfeVariable[];
}

export interface TfeWorkspaceIntent {
  type: 'tfe.no-code-workspace.v1';
  /** Only on a create. */
  create?: TfeWorkspaceCreate;
  /** Update or upgrade: the settings that change. Absent: none does. */
  settings?: TfeWorkspaceSettings;
  /** Update or upgrade: the variable requests, in order. */
  variables?: TfeVariableOp[];
  /**
   * Update or upgrade: the id of the NoCodeModule the workspace runs (the upgrade is sent to it; the
   * record keeps it), as for a create. Absent in a plan made before it was carried.
   */
  moduleId?: string | null;
}

/** An auth method secret the body leaves empty, filled from the manifest when the request is sent. */
export type NomadSecretField = 'oidcClientSecret' | 'pemKey';

/**
 * A Nomad create or update (auth method, binding rule, ACL policy, ACL role): the request body as
 * sent (docs/reference/nomad-api.md), each secret left empty and named in `secrets`. No body: only
 * converge's own fields changed (protect); nothing is sent and the record is updated.
 */
export interface NomadWriteIntent {
  type: 'nomad.write.v1';
  /** The UUID an update is sent to (binding rules and ACL roles; the others are addressed by name). */
  id?: string;
  body?: { [key: string]: JsonValue };
  secrets?: NomadSecretField[];
}
