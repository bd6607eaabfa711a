import type { ObjectView } from '../providers/provider.js';
import { canonicalJson, sha256Hex } from '../plan/canonical.js';
import type { ReadFingerprint } from '../plan/types.js';

/** What one object looked like when read: sha256 of canonical `{id, fields}` of live, or null when absent. */
export function fingerprint(view: ObjectView): ReadFingerprint {
  const live = view.live;
  return {
    kind: view.kind,
    name: view.name,
    digest: live ? 'sha256:' + sha256Hex(canonicalJson({ id: live.id, fields: live.fields })) : null,
    fields: live ? { ...live.fields } : {},
  };
}
