import { isConvergeError } from '../../../diagnostics/errors.js';
import type { Diagnostic } from '../../../diagnostics/types.js';
import type { JsonValue } from '../../../model/json.js';
import type { Change } from '../../../plan/types.js';
import type { StateRecord } from '../../../state/types.js';
import type { Address } from '../../../model/kinds.js';
import type { ApplyContext, ObjectView } from '../../../providers/provider.js';
import type { TfeSession } from '../../../providers/tfe/session.js';

/*
 * The owner tag: a workspace a named state creates (or updates) carries the flat tag
 * `converge-state:<state name>` (HCP Terraform tag names allow letters, numbers, colons, hyphens and
 * underscores, up to 255 characters: organization-tags API). It is the one place the API gives to say which
 * state owns a workspace, so two states (two CI jobs, two teams' tokens) never both claim one: a plan refuses a
 * workspace that carries another state's tag instead of adopting or changing it. Added with
 * `POST /workspaces/:id/relationships/tags` after the create (the no-code workspace create documents no tags),
 * read back from the workspace's `tag-names` attribute, which the workspace list already carries: no extra read.
 */

export const OWNER_TAG_PREFIX = 'converge-state:';

export function ownerTag(stateName: string): string {
  return `${OWNER_TAG_PREFIX}${stateName}`;
}

/** The state named by a workspace's owner tag, or null when it has none (the first one, should there be more). */
export function ownerOfTags(tagNames: readonly string[]): string | null {
  const tag = tagNames.find((t) => t.startsWith(OWNER_TAG_PREFIX) && t.length > OWNER_TAG_PREFIX.length);
  return tag === undefined ? null : tag.slice(OWNER_TAG_PREFIX.length);
}

function ownerOfView(view: ObjectView): string | null {
  const owner: JsonValue | undefined = view.live?.extra.ownerState;
  return typeof owner === 'string' ? owner : null;
}

/** Workspaces in play that carry another state's owner tag: one error each, at the manifest document. */
export function ownershipDiagnostics(views: readonly ObjectView[], stateName: string | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const view of views) {
    if (view.kind !== 'NoCodeWorkspace') continue;
    const owner = ownerOfView(view);
    if (owner === null || owner === stateName) continue;
    const address = `NoCodeWorkspace/${view.name}`;
    const here = stateName === undefined ? 'this state (it has no name)' : `this state (${stateName})`;
    out.push({
      severity: 'error',
      code: 'tfe.workspace.owned-elsewhere',
      summary: `${address} is owned by the converge state "${owner}" (its tag ${ownerTag(owner)}): ${here} will not ${view.record ? 'change' : 'adopt'} it`,
      detail:
        `Two states must never manage one workspace. If it belongs to "${owner}", remove its document from these manifests` +
        `${view.record ? ` and forget it here with \`converge state rm ${address}\`` : ''}. ` +
        `To move it here: in the "${owner}" state run \`converge state rm ${address}\` (it also removes the tag ${ownerTag(owner)}) and remove its document there, then plan here again. ` +
        `If that state is gone, remove the tag by hand (HCP Terraform UI, or DELETE /api/v2/workspaces/${view.live?.id ?? '<id>'}/relationships/tags).`,
      ...(view.desired ? { range: view.desired.object.range } : {}),
    });
  }
  return out;
}

/**
 * A workspace this named state owns but whose owner tag is missing (created before the state had a name, the
 * tag removed by hand, or an apply stopped between the create and the tag) becomes an update that adds it.
 */
export function claimChange(view: ObjectView, change: Change, stateName: string | undefined): Change {
  if (stateName === undefined || view.kind !== 'NoCodeWorkspace' || !view.live || !view.desired) return change;
  if (ownerOfView(view) !== null) return change;
  const tag = ownerTag(stateName);
  if (change.action === 'no-op') return { ...change, action: 'update', reasons: [{ code: 'owner-tag', tag }] };
  // An update tags it as it goes (update.ts); an upgrade does not, so the plan after it does.
  if (change.action === 'update') return { ...change, notes: [...change.notes, { code: 'owner-tag', tag }] };
  return change;
}

/** Adds this state's owner tag to a workspace that lacks it (adding a tag twice is harmless). */
export async function claimWorkspace(session: TfeSession, view: ObjectView, workspaceId: string, name: string): Promise<void> {
  if (session.stateName === undefined || ownerOfView(view) === session.stateName) return;
  await session.client.send(
    {
      method: 'POST',
      path: `/workspaces/${encodeURIComponent(workspaceId)}/relationships/tags`,
      body: { data: [{ type: 'tags', attributes: { name: ownerTag(session.stateName) } }] },
      idempotent: true,
    },
    { what: `owner tag of workspace ${name}` },
  );
}

/*
 * The no-code workspace create takes no tags (docs/reference/workspace-tags.md), so a workspace is untagged
 * between its create and the tag write. When that write fails, the record says so (`extra.ownerTagPending`, the
 * tag) and the creating apply tries once more after following the first run; a tag still missing is added by
 * this state's next plan (claimChange), which the record's mark names. Another state cannot see the mark: a
 * named or new one takes an untagged workspace only with consent (decisions.md §27, §29).
 */
const PENDING = 'ownerTagPending';

/** The owner tag a create could not write yet, from the record (or null). */
export function pendingOwnerTag(record: StateRecord | undefined): string | null {
  const tag = record?.extra[PENDING];
  return typeof tag === 'string' ? tag : null;
}

/** Records (`tag`) or clears (null) the owner tag pending on a workspace's record; writes only on a change. */
export async function setPendingOwnerTag(ctx: ApplyContext, address: Address, tag: string | null): Promise<void> {
  const record = ctx.record(address);
  if (!record || pendingOwnerTag(record) === tag) return;
  const { [PENDING]: _previous, ...extra } = record.extra;
  await ctx.save({ ...record, extra: tag === null ? extra : { ...extra, [PENDING]: tag }, updatedAt: new Date().toISOString() });
}

/**
 * After a create (its record saved): tags the workspace. A failure must not stop following the first run: it
 * is a warning, and the record keeps the tag as pending. Returns whether the tag is on the workspace.
 */
export async function claimCreated(session: TfeSession, ctx: ApplyContext, view: ObjectView, workspaceId: string, name: string): Promise<boolean> {
  if (session.stateName === undefined) return true;
  try {
    await claimWorkspace(session, view, workspaceId, name);
    await setPendingOwnerTag(ctx, view, null);
    return true;
  } catch (e) {
    if (isConvergeError(e) && e.code === 'state.write-failed') throw e;
    const message = e instanceof Error ? e.message : String(e);
    session.reporter.emit({ code: 'tfe.workspace.owner-tag', level: 'warn', message: `workspace ${name} was created but not tagged with its owner yet (${message}); converge tries again after its first run, and the next plan adds the tag if it is still missing`, data: { workspace: name } });
    await setPendingOwnerTag(ctx, view, ownerTag(session.stateName));
    return false;
  }
}

/** The creating apply's second try, after the first run: a tag still missing stays pending for the next plan. */
export async function retryPendingTag(session: TfeSession, ctx: ApplyContext, view: ObjectView, workspaceId: string, name: string): Promise<void> {
  if (session.stateName === undefined || pendingOwnerTag(ctx.record(view)) === null || ctx.signal?.aborted) return;
  try {
    await claimWorkspace(session, view, workspaceId, name);
  } catch (e) {
    if (isConvergeError(e) && e.code === 'state.write-failed') throw e;
    const message = e instanceof Error ? e.message : String(e);
    session.reporter.emit({ code: 'tfe.workspace.owner-tag', level: 'warn', message: `workspace ${name} is still not tagged with its owner (${message}); the next plan adds the tag`, data: { workspace: name } });
    return;
  }
  await setPendingOwnerTag(ctx, view, null);
}

/**
 * `converge state rm` of a workspace in a named state: removes this state's owner tag from it, so another state
 * may adopt it (`DELETE /workspaces/:id/relationships/tags` with the tag name; go-tfe `RemoveTags`). One
 * request; removing a tag the workspace does not carry changes nothing, and another state's tag is never sent.
 * A workspace already gone (404) needs nothing.
 */
export async function releaseWorkspace(session: TfeSession, record: StateRecord): Promise<string | null> {
  if (session.stateName === undefined || record.kind !== 'NoCodeWorkspace') return null;
  const tag = ownerTag(session.stateName);
  try {
    await session.client.send(
      {
        method: 'DELETE',
        path: `/workspaces/${encodeURIComponent(record.id)}/relationships/tags`,
        body: { data: [{ type: 'tags', attributes: { name: tag } }] },
        idempotent: true,
      },
      { what: `owner tag of workspace ${record.name}` },
    );
  } catch (e) {
    if (isConvergeError(e) && e.code === 'tfe.not-found') return null;
    throw e;
  }
  return `Removed the owner tag ${tag} from workspace ${record.name} (${record.id}): another state may now adopt it.`;
}
