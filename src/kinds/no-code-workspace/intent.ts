/*
 * What apply sends for a NoCodeWorkspace change (one of plan/intent.ts `ApplyIntent`): plain JSON, built at plan
 * time by the kind's remote half and carried by a saved plan. Never a secret value: a sensitive value is a
 * reference to the manifest, resolved when the request is sent.
 */

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
