/*
 * Why a change is planned (reasons) and what a reviewer must know about it (notes), as codes with
 * data. The engine and the providers make these; only views/ turns them into sentences
 * (views/change-sentences.ts), so nothing downstream ever has to take a sentence apart. Data holds
 * paths, ids, versions and names, never a value of a sensitive field. docs/codes.md lists every
 * code (a test keeps it in step with REASON_CODES and NOTE_CODES below).
 */

/** How a workspace removed from the manifests goes (tfe/mapping.ts DeletionPolicy). */
export type DeletionPolicyCode = 'safe' | 'destroy' | 'orphan';

export type Reason =
  | { code: 'new' }
  | { code: 'missing-live' }
  | { code: 'removed' }
  /** `plan --destroy` / `converge destroy`: the deletion was asked for, the manifests may still declare it. */
  | { code: 'destroy-requested' }
  | { code: 'differs'; paths: string[] }
  | { code: 'secret-changed'; paths: string[] }
  | { code: 'protect-changed' }
  | { code: 'adopt' }
  | { code: 'adopt-refused' }
  | { code: 'protected-delete' }
  | { code: 'rewrite' }
  | { code: 'replace-auth-method' }
  | { code: 'replace-to-management' }
  | { code: 'module-version'; module: string; from: string | null; to: string }
  | { code: 'module-options' }
  | { code: 'upgrade-available' }
  | { code: 'first-run-in-flight'; runId: string; status: string | null }
  | { code: 'resume-run'; purpose: string; runId: string; phase: string }
  | { code: 'deletion-policy'; policy: DeletionPolicyCode; destroyRequested?: true }
  /** A workspace this named state owns lacks its owner tag (src/kinds/no-code-workspace/remote/owner-tag.ts): the update adds it. */
  | { code: 'owner-tag'; tag: string }
  /**
   * A Moved document renames the object the state owns at `Kind/from`: `in-place`, the service renames it and
   * keeps its id; `state-only`, the name is converge's own and only the state record moves.
   */
  | { code: 'moved'; from: string; how: 'in-place' | 'state-only' }
  /** Only in a plan written by an older converge, whose reasons were sentences: shown as written. */
  | { code: 'legacy-text'; text: string };

export type Note =
  | { code: 'adopt-matches' }
  | { code: 'adopted'; address: string }
  | { code: 'adopted-rule'; id: string }
  | { code: 'adopted-role'; id: string }
  | { code: 'secret-invisible' }
  | { code: 'secret-unknown'; paths: string[] }
  /** A secret rewritten outside converge (hidden drift) is sent again with this update: the manifest's value. */
  | { code: 'secret-resent'; paths: string[] }
  | { code: 'already-gone' }
  /** A `deletion: safe` workspace that still manages resources: HCP Terraform will refuse the safe-delete. */
  | { code: 'safe-delete-refused'; resources: number }
  | { code: 'module-downgrade'; from: string; to: string }
  | { code: 'recreate-missing' }
  | { code: 'protected-delete' }
  | { code: 'replaces-rule'; id: string; field: 'authMethod' | 'bindType'; from: string; to: string }
  | { code: 'management-rule' }
  | { code: 'templated-bind-name' }
  /** Deleting a Nomad ACL role (a rename too): tokens link roles by ID, so live tokens lose its policies. */
  | { code: 'role-delete-unlinks-tokens'; id: string }
  | { code: 'version-unpinned'; latest: string }
  | { code: 'run-in-flight'; purpose: string; runId: string; phase: string; status: string | null }
  | { code: 'run-applied-since'; purpose: string; runId: string; status: string }
  | { code: 'resumes-upgrade-run'; runId: string; phase: string }
  | { code: 'first-run-then-upgrade'; runId: string; status: string | null }
  | { code: 'owner-tag'; tag: string }
  /**
   * A Moved document renames an object whose live identity is its name (an auth method, an ACL policy): the
   * service cannot rename it, so it is deleted and created; `dependents`, what refers to it and changes with it.
   */
  | { code: 'moved-recreates'; from: string; to: string; dependents: string[] }
  /** The record left at a move's old address by an apply stopped between its two state writes: dropped. */
  | { code: 'moved-leftover'; to: string }
  /** Only in a plan written by an older converge, whose notes were sentences: shown as written. */
  | { code: 'legacy-text'; text: string };

export type ReasonCode = Reason['code'];
export type NoteCode = Note['code'];

/** One line of docs/codes.md: what the code means and the data it carries. */
export interface CodeDoc {
  meaning: string;
  data: string;
}

/** Every reason code; `satisfies` makes a code missing here a type error. */
export const REASON_CODES = {
  new: { meaning: 'the object is in the manifests and neither live nor in state', data: '-' },
  'missing-live': { meaning: 'an owned object is gone from the live service; it is created again', data: '-' },
  removed: { meaning: 'an owned object left the manifests; it is deleted', data: '-' },
  'destroy-requested': { meaning: 'a destroy plan (`plan --destroy`, `converge destroy`) deletes an owned object in scope', data: '-' },
  differs: { meaning: 'readable fields differ between live and the manifests', data: 'paths: string[]' },
  'secret-changed': { meaning: 'a secret’s digest differs from the one recorded at the last apply', data: 'paths: string[]' },
  'protect-changed': { meaning: '`protect` changed; it lives only in state', data: '-' },
  adopt: { meaning: 'an unowned live object is taken into state', data: '-' },
  'adopt-refused': { meaning: 'an unowned live object differs from its manifest and is not taken over (an error says how)', data: '-' },
  'protected-delete': { meaning: 'a protected object left the manifests; deletion is refused (an error says how)', data: '-' },
  rewrite: { meaning: '`--rewrite` sends every field again, secrets included', data: '-' },
  'replace-auth-method': { meaning: 'Nomad cannot move a binding rule to another auth method: delete + create', data: '-' },
  'replace-to-management': { meaning: 'Nomad cannot turn a role/policy binding rule into a management one: delete + create', data: '-' },
  'module-version': { meaning: 'the workspace’s module version moves: an upgrade run', data: 'module: string; from: string | null; to: string' },
  'module-options': { meaning: 'the module’s variable options change: the workspace takes them through an upgrade', data: '-' },
  'upgrade-available': { meaning: 'HCP Terraform flags a no-code upgrade as available', data: '-' },
  'first-run-in-flight': { meaning: 'an adopted workspace’s first run is in flight; apply follows it', data: 'runId: string; status: string | null' },
  'resume-run': { meaning: 'a run an earlier apply started is still in flight; apply resumes following it', data: 'purpose: string; runId: string; phase: string' },
  'deletion-policy': { meaning: 'a workspace left the manifests; its deletion policy says what happens', data: "policy: 'safe' | 'destroy' | 'orphan'; destroyRequested?: true (a destroy plan, not a removal)" },
  'owner-tag': { meaning: 'a workspace this named state owns lacks its owner tag; the update adds it', data: 'tag: string' },
  moved: { meaning: 'a Moved document renames an owned object: in place (same id) or in the state only, never a delete and a create', data: "from: string (Kind/name); how: 'in-place' | 'state-only'" },
  'legacy-text': { meaning: 'a reason from a plan written by an older converge, shown as written', data: 'text: string' },
} as const satisfies Record<ReasonCode, CodeDoc>;

/** Every note code; `satisfies` makes a code missing here a type error. */
export const NOTE_CODES = {
  'adopt-matches': { meaning: 'an unowned object matches the manifests; apply records it, sending nothing', data: '-' },
  adopted: { meaning: 'an unowned object is taken over by a change that also sends something', data: 'address: string' },
  'adopted-rule': { meaning: 'an unowned Nomad binding rule was matched by its contents', data: 'id: string' },
  'adopted-role': { meaning: 'an unowned Nomad ACL role was matched by name', data: 'id: string' },
  'secret-invisible': { meaning: 'the service never returns secrets, so their live drift cannot be seen', data: '-' },
  'secret-unknown': { meaning: 'an adopted object’s secrets are unknown to converge and are written', data: 'paths: string[]' },
  'secret-resent': { meaning: 'a secret rewritten outside converge (hidden drift) is sent again with this update, the manifest’s value', data: 'paths: string[]' },
  'already-gone': { meaning: 'an owned object is gone live and left the manifests; its record is dropped', data: '-' },
  'module-downgrade': { meaning: 'the manifest pins an older module version than the workspace runs: the upgrade goes back', data: 'from: string; to: string' },
  'safe-delete-refused': { meaning: 'a `deletion: safe` workspace still manages resources: HCP Terraform will refuse the safe-delete', data: 'resources: number' },
  'recreate-missing': { meaning: 'an owned object is gone live (deleted outside converge?); it is created again', data: '-' },
  'protected-delete': { meaning: 'a protected object’s deletion is refused', data: '-' },
  'replaces-rule': { meaning: 'a binding-rule replacement: which rule, and the field Nomad cannot change in place', data: "id: string; field: 'authMethod' | 'bindType'; from: string; to: string" },
  'management-rule': { meaning: 'a management binding rule gives full access to everyone its selector matches', data: '-' },
  'templated-bind-name': { meaning: 'a templated bind name is filled at login; the role or policy it names cannot be checked', data: '-' },
  'role-delete-unlinks-tokens': { meaning: 'a Nomad ACL role is deleted (a rename is a delete and a create): live tokens linked to it by ID lose its policies', data: 'id: string (the role)' },
  'version-unpinned': { meaning: 'a module has no versionPin; the registry’s latest version is used', data: 'latest: string' },
  'run-in-flight': { meaning: 'a run an earlier apply started was last seen in a phase; apply resumes following it', data: 'purpose: string; runId: string; phase: string; status: string | null' },
  'run-applied-since': { meaning: 'a run an earlier apply started and recorded has applied since (a manual confirmation): its result is converge’s own, recorded by the next apply without a request', data: 'purpose: string; runId: string; status: string' },
  'resumes-upgrade-run': { meaning: 'the upgrade resumes an earlier apply’s run instead of starting another', data: 'runId: string; phase: string' },
  'first-run-then-upgrade': { meaning: 'an adopted workspace’s first run is followed, then the workspace upgrades', data: 'runId: string; status: string | null' },
  'owner-tag': { meaning: 'the update also adds the owner tag of this named state to the workspace', data: 'tag: string' },
  'moved-recreates': { meaning: 'a Moved document renames an object whose live identity is its name: a delete and a create, with what refers to it', data: 'from: string; to: string (Kind/name); dependents: string[]' },
  'moved-leftover': { meaning: 'an apply stopped between a move’s two state writes left the old record; it is dropped', data: 'to: string (Kind/name)' },
  'legacy-text': { meaning: 'a note from a plan written by an older converge, shown as written', data: 'text: string' },
} as const satisfies Record<NoteCode, CodeDoc>;

/** The adoption note of an address (engine and providers make it the same way). */
export function adoptedNote(address: string): Note {
  return { code: 'adopted', address };
}

/** What the object a provider reports on is called in people's words: a Nomad rule or role has only an id. */
export type OutcomeObject = 'rule' | 'role';

/** What a workspace change did before the run an outcome reports on (HCP Terraform). */
export type RunStep =
  | { step: 'created'; id: string; version: string | null }
  | { step: 'written'; settings: boolean; variableWrites: number }
  | { step: 'destroy' }
  | { step: 'run'; purpose: string };

/** How an upgrade run ended: `none` when the service had nothing to upgrade and said so in its own words. */
export type UpgradeEnd = { run: 'applied' } | { run: 'no-changes'; finalState: string } | { run: 'none'; serviceMessage: string | null };

/**
 * What an apply outcome did, or why it was skipped or waits, as a code with data (ApplyOutcome.detail);
 * views/apply-result.ts words it. An outcome without one carries a provider's `message` for people instead.
 */
export type OutcomeDetail =
  | { code: 'done' }
  | { code: 'done-id'; id: string; object?: OutcomeObject; paths?: string[] }
  | { code: 'already-gone'; id?: string; object?: OutcomeObject; notFound?: boolean }
  | { code: 'protect-recorded' }
  | { code: 'dropped-no-id'; object: OutcomeObject }
  | { code: 'created-no-first-run'; id: string }
  | { code: 'created-run'; id: string; version: string | null; run: 'applied' | 'no-changes' }
  | { code: 'recorded' }
  | { code: 'module-enabled'; registryModule: string; version: string; id: string }
  | { code: 'written'; settings: boolean; variableWrites: number }
  | { code: 'run-ended'; after: RunStep; run: 'applied' | 'no-changes' }
  | { code: 'run-interrupted'; after: RunStep; url: string }
  | { code: 'safe-deleted'; id: string }
  | { code: 'orphaned' }
  | { code: 'destroyed'; id: string; deleted: boolean }
  | { code: 'upgrade-ended'; written: { settings: boolean; variableWrites: number }; runId: string | null; ended: UpgradeEnd; nowAt?: string }
  /** Failed (the outcome's error says why): the destroy run applied, the safe-delete after it did not. */
  | { code: 'destroy-run-applied' }
  /** Failed (the outcome's error says why): what was done before the run that failed. */
  | { code: 'run-failed'; after: RunStep }
  // Failed before anything was sent: the planned change lacks what its own planning always gives it (a bug).
  | { code: 'internal-no-manifest' }
  | { code: 'internal-no-live' }
  | { code: 'internal-no-create-body' }
  // Why a change was skipped (status `skipped`): the engine and the upgrade rollout decide these.
  | { code: 'cancelled' }
  | { code: 'lock-lost' }
  | { code: 'earlier-not-recorded' }
  | { code: 'protected' }
  | { code: 'dependent-not-deleted'; dependent: string }
  | { code: 'deletion-not-done' }
  | { code: 'dependency-not-done'; dependency: string; status: 'failed' | 'skipped' }
  | { code: 'canary-failed'; canary: string; cause?: string }
  | { code: 'upgrade-failed'; workspace: string }
  | { code: 'max-failures'; module: string; maxFailures: number; failed: string[] }
  // Why a change waits (status `awaiting-confirmation`).
  | { code: 'awaiting-upgrade-run'; runId: string; url: string }
  | { code: 'awaiting-run'; after: RunStep; url: string };

export type OutcomeCode = OutcomeDetail['code'];

/** Every outcome code; `satisfies` makes a code missing here a type error. */
export const OUTCOME_CODES = {
  done: { meaning: 'the action was done; the plan’s fields or versions say the rest', data: '-' },
  'done-id': { meaning: 'the action was done on the remote object of this id', data: "id: string; object?: 'rule' | 'role'; paths?: string[]" },
  'already-gone': { meaning: 'a delete found the object already gone; it counts as done', data: "id?: string; object?: 'rule' | 'role'; notFound?: boolean (the service answered 404)" },
  'protect-recorded': { meaning: 'only `protect` changed; it is recorded in state, nothing is sent', data: '-' },
  'dropped-no-id': { meaning: 'a delete of an object whose id converge never learned: its record is dropped', data: "object: 'rule' | 'role'" },
  'created-no-first-run': { meaning: 'a workspace was created, but no first run appeared while converge looked for it', data: 'id: string' },
  'created-run': { meaning: 'a workspace was created and its first run followed to the end', data: "id: string; version: string | null; run: 'applied' | 'no-changes'" },
  recorded: { meaning: 'nothing needed sending: only the state record was written', data: '-' },
  'module-enabled': { meaning: 'no-code provisioning was enabled for a registry module at a version', data: 'registryModule: string; version: string; id: string (the no-code module)' },
  written: { meaning: 'a workspace’s settings and variables were sent (or only its record written)', data: 'settings: boolean; variableWrites: number' },
  'run-ended': { meaning: 'a workspace change, then the run it followed ended', data: "after: { step: 'created'; id; version } | { step: 'written'; settings; variableWrites } | { step: 'destroy' } | { step: 'run'; purpose }; run: 'applied' | 'no-changes'" },
  'safe-deleted': { meaning: 'a workspace was safe-deleted (HCP Terraform refuses while it manages resources)', data: 'id: string' },
  orphaned: { meaning: 'deletion policy orphan: converge forgot the workspace; it and its resources stay', data: '-' },
  destroyed: { meaning: 'deletion policy destroy: the destroy run applied, then the workspace was safe-deleted (or was already gone)', data: 'id: string; deleted: boolean (false: the safe-delete found it gone)' },
  'upgrade-ended': {
    meaning: 'a workspace’s settings and variables were sent, then its upgrade run ended (or the service had nothing to upgrade)',
    data: "written: { settings; variableWrites }; runId: string | null; ended: { run: 'applied' } | { run: 'no-changes'; finalState } | { run: 'none'; serviceMessage }; nowAt?: string (the version the workspace runs, when not the planned one)",
  },
  'destroy-run-applied': { meaning: 'failed: the destroy run applied, but the safe-delete after it was refused; the outcome’s error says why, after this sentence', data: '-' },
  'run-failed': { meaning: 'failed: the run after a workspace change failed; the outcome’s error says why, after this sentence', data: "after: { step: 'created'; id; version } | { step: 'written'; settings; variableWrites } | { step: 'destroy' } | { step: 'run'; purpose }" },
  'run-interrupted': { meaning: 'an interrupt stopped converge while it followed the run; the run goes on in HCP Terraform and the next apply follows it (status `cancelled`, or `succeeded` for a workspace created)', data: "after: RunStep (as for run-ended); url: string" },
  'internal-no-manifest': { meaning: 'failed, nothing sent: a create, update or upgrade planned without its manifest object (a bug in converge)', data: '-' },
  'internal-no-live': { meaning: 'failed, nothing sent: an update or upgrade planned without the live object it changes (a bug in converge)', data: '-' },
  'internal-no-create-body': { meaning: 'failed, nothing sent: a workspace create planned without the body it sends (a bug in converge)', data: '-' },
  cancelled: { meaning: 'skipped: the apply was cancelled (Ctrl-C) before this change started', data: '-' },
  'lock-lost': { meaning: 'skipped: the state lock was lost, so nothing more starts', data: '-' },
  'earlier-not-recorded': { meaning: 'skipped: an earlier change could not be recorded in the state, so nothing more starts', data: '-' },
  protected: { meaning: 'skipped: a protected object is never deleted', data: '-' },
  'dependent-not-deleted': { meaning: 'skipped: an object that depends on this one was not deleted, so this one stays', data: 'dependent: string (its address)' },
  'deletion-not-done': { meaning: 'skipped: the create of a replacement waits for its delete, which did not succeed', data: '-' },
  'dependency-not-done': { meaning: 'skipped: an object this one depends on failed or was skipped', data: "dependency: string (its address); status: 'failed' | 'skipped'" },
  'canary-failed': { meaning: 'skipped: the rollout’s canary upgrade failed, so no other upgrade starts', data: 'canary: string (workspace name); cause?: string (the canary’s error code)' },
  'upgrade-failed': { meaning: 'skipped: an upgrade of the same module failed (upgrade.maxFailures: 1)', data: 'workspace: string' },
  'max-failures': { meaning: 'skipped: upgrade.maxFailures upgrades of the same module failed', data: 'module: string; maxFailures: number; failed: string[] (workspace names)' },
  'awaiting-upgrade-run': { meaning: 'awaiting confirmation: the upgrade run is planned and waits to be confirmed (upgrade.confirm: manual)', data: 'runId: string; url: string' },
  'awaiting-run': { meaning: 'awaiting confirmation: after a workspace change, its run is planned and waits to be confirmed', data: "after: { step: 'created'; id; version } | { step: 'written'; settings; variableWrites } | { step: 'destroy' } | { step: 'run'; purpose }; url: string" },
} as const satisfies Record<OutcomeCode, CodeDoc>;

/** A change converge cannot read, as the provider saw it (LiveView.hiddenChange). */
export type HiddenChange =
  /** HCP Terraform: the version-id of these sensitive variables moved since the last apply. */
  | { code: 'secret-versions-moved'; paths: string[] }
  /** Nomad: the auth method's hash moved while every readable field matches. */
  | { code: 'secret-hash-moved' };

/** What a drift item says, as a code with data (DriftItem.detail); views/drift.ts words it. */
export type DriftDetail =
  | { code: 'gone-live'; recreate: boolean }
  | { code: 'changed-outside' }
  | { code: 'manifest-changed' }
  | { code: 'manifest-removed' }
  | { code: 'hidden-change'; hidden: HiddenChange }
  /** Only in a plan written by an older converge, whose drift said a sentence: shown as written. */
  | { code: 'legacy-text'; text: string };

export type DriftCode = DriftDetail['code'];

/** Every drift code; `satisfies` makes a code missing here a type error. */
export const DRIFT_CODES = {
  'gone-live': { meaning: 'an owned object is gone from the live service', data: 'recreate: boolean (still in the manifests: apply creates it again)' },
  'changed-outside': { meaning: 'live differs from what converge last applied: the drift item’s fields', data: '-' },
  'manifest-changed': { meaning: 'the manifests changed since the last apply; live did not: the drift item’s fields', data: '-' },
  'manifest-removed': { meaning: 'the object left the manifests; apply deletes it', data: '-' },
  'hidden-change': { meaning: 'a field converge cannot read (a secret) may have changed', data: "hidden: { code: 'secret-versions-moved'; paths: string[] } | { code: 'secret-hash-moved' }" },
  'legacy-text': { meaning: 'drift from a plan written by an older converge, shown as written', data: 'text: string' },
} as const satisfies Record<DriftCode, CodeDoc>;
