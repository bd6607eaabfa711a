import { assertNever } from '../model/action.js';
import type { Note, Reason } from '../plan/codes.js';
import { describePaths } from '../plan/reasons.js';
import type { Change } from '../plan/types.js';

/*
 * The only place a change's reasons and notes become sentences (plan/codes.ts has the codes,
 * docs/codes.md the catalogue). Every view (text, Markdown, the `reason`/`notes` strings of
 * `plan --json`) words them here, so they never disagree.
 */

const DELETION: Record<Extract<Reason, { code: 'deletion-policy' }>['policy'], string> = {
  safe: 'deletion safe — the workspace is safe-deleted, which HCP Terraform refuses while it still manages resources',
  destroy: 'deletion destroy — a destroy run removes its resources, then the workspace is safe-deleted',
  orphan: 'deletion orphan — converge forgets it; the workspace and its resources stay',
};

export function reasonSentence(r: Reason): string {
  switch (r.code) {
    case 'new':
      return 'new in the manifests';
    case 'missing-live':
      return 'missing from the live service';
    case 'removed':
      return 'removed from the manifests';
    case 'destroy-requested':
      return 'destroy requested';
    case 'differs':
      return `differs from the manifests: ${describePaths(r.paths)}`;
    case 'secret-changed':
      return `secret changed: ${describePaths(r.paths)}`;
    case 'protect-changed':
      return 'protect changed (recorded in state)';
    case 'adopt':
      return 'adopt into state';
    case 'adopt-refused':
      return 'exists live, not owned, differs from the manifests: not taken over';
    case 'protected-delete':
      return 'protected: deletion refused';
    case 'rewrite':
      return 'rewrite requested (--rewrite): every field is sent again, secrets included';
    case 'replace-auth-method':
      return 'Nomad cannot move a binding rule to another auth method; it is replaced';
    case 'replace-to-management':
      return 'Nomad cannot turn a role or policy binding rule into a management one in place (it keeps the old bind name); it is replaced';
    case 'module-version':
      return `module ${r.module} moves from ${r.from ?? 'an unknown version'} to ${r.to}`;
    case 'module-options':
      return 'the module’s variable options change: the workspace takes them through an upgrade';
    case 'upgrade-available':
      return 'HCP Terraform reports a no-code upgrade is available';
    case 'first-run-in-flight':
      return firstRun(r);
    case 'resume-run':
      return `resume following ${r.purpose} run ${r.runId} started by an earlier apply (last seen ${r.phase})`;
    case 'deletion-policy':
      return `${r.destroyRequested === true ? 'destroy requested' : 'removed from the manifests'}: ${DELETION[r.policy]}`;
    case 'owner-tag':
      return `tag the workspace ${r.tag} (owner of record)`;
    case 'moved':
      return r.how === 'in-place'
        ? `moved from ${r.from} (a Moved document): renamed in place, keeping its id, never deleted`
        : `moved from ${r.from} (a Moved document): the name is converge's own, so only the state record moves; nothing is sent for the name`;
    case 'legacy-text':
      return r.text;
    default:
      return assertNever(r, 'reason');
  }
}

function firstRun(r: { runId: string; status: string | null }): string {
  return `its first run ${r.runId} is in flight (${r.status ?? 'unknown'}) and not in state: apply follows it and confirms it per upgrade.confirm`;
}

export function noteSentence(n: Note): string {
  switch (n.code) {
    case 'adopt-matches':
      return 'exists and matches the manifests; not owned yet: the next apply records it in state without sending anything';
    case 'adopted':
      return `adopted: ${n.address} exists and is not in state; converge takes ownership of it`;
    case 'adopted-rule':
      return `adopted existing rule ${n.id}: matched by auth method, selector, bind type and bind name`;
    case 'adopted-role':
      return `adopted existing role ${n.id}: matched by name`;
    case 'secret-invisible':
      return 'live secret drift cannot be seen: the server never returns secret values';
    case 'secret-unknown':
      return `secret value unknown to converge: it will be written (${n.paths.join(', ')})`;
    case 'secret-resent':
      return `secret rewritten outside converge: the manifest's value is sent again with this update (${n.paths.join(', ')})`;
    case 'already-gone':
      return 'already gone: will be dropped from state';
    case 'module-downgrade':
      return `a downgrade: ${n.to} is older than ${n.from}, which the workspace runs; the module's resources go back to what ${n.to} declares. If that is not meant, pin ${n.from} or later`;
    case 'safe-delete-refused':
      return `will be refused: the workspace still manages ${n.resources} resource${n.resources === 1 ? '' : 's'} and deletion is safe. Set \`deletion: destroy\` (a destroy run first) or \`deletion: orphan\` (keep it, forget it) and apply before removing the manifest, or destroy them first`;
    case 'recreate-missing':
      return 'owned by converge but not found live (deleted outside converge?): it will be created again';
    case 'protected-delete':
      return 'protected: deletion refused';
    case 'replaces-rule':
      return `replaces rule ${n.id} (${n.field === 'authMethod' ? 'auth method' : 'bind type'} ${n.from} → ${n.to})`;
    case 'management-rule':
      return 'bindType management: everyone the selector matches gets a management token (full access to the cluster)';
    case 'templated-bind-name':
      return 'bindName is a template (${…}): Nomad fills it at login, so converge cannot check that the role or policy exists';
    case 'role-delete-unlinks-tokens':
      return `warning: tokens link roles by ID, so every live token linked to role ${n.id} loses the role's policies when it is deleted; a rename is a delete and a create, and does the same. To keep those tokens working, keep the role's name (an edit of its policies or description is an update in place), or issue new tokens after the apply`;
    case 'version-unpinned':
      return `versionPin not set: latest is ${n.latest}`;
    case 'run-in-flight':
      return `${n.purpose} run ${n.runId} started by an earlier apply was last seen ${n.phase} (now ${n.status ?? 'unknown'}): apply resumes following it`;
    case 'run-applied-since':
      return `${n.purpose} run ${n.runId} started by an earlier apply has ${n.status === 'applied' ? 'applied' : `ended ${n.status}`} since: the next apply records its result (nothing is sent)`;
    case 'resumes-upgrade-run':
      return `resumes upgrade run ${n.runId} (last seen ${n.phase}) instead of starting another`;
    case 'first-run-then-upgrade':
      return `${firstRun(n)}, then upgrades`;
    case 'owner-tag':
      return `tag the workspace ${n.tag} (owner of record)`;
    case 'moved-recreates':
      return (
        `warning: Moved ${n.from} → ${n.to} cannot rename in place (the name is the object's live identity): it is a delete of the old object and a create of the new` +
        (n.dependents.length > 0 ? `; what refers to it changes with it: ${n.dependents.join(', ')}` : '') +
        '. Keep the old name to avoid it'
      );
    case 'moved-leftover':
      return `left over by an apply stopped while moving the object to ${n.to}: the record is dropped from state (nothing sent)`;
    case 'legacy-text':
      return n.text;
    default:
      return assertNever(n, 'note');
  }
}

/** The change's reasons as one line ("a; b"), or undefined without any. */
export function reasonLine(c: Pick<Change, 'reasons'>): string | undefined {
  const rs = c.reasons ?? [];
  return rs.length > 0 ? rs.map(reasonSentence).join('; ') : undefined;
}

export function noteLines(c: Pick<Change, 'notes'>): string[] {
  return c.notes.map(noteSentence);
}

/** Which set and item generated the object's document, when a NoCodeWorkspaceSet did. */
export function originLine(c: Pick<Change, 'origin'>): string | undefined {
  return c.origin === undefined ? undefined : `generated by NoCodeWorkspaceSet/${c.origin.set} for item ${c.origin.item}`;
}
