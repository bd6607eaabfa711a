import { assertNever } from '../model/action.js';
import { addressKey } from '../model/kinds.js';
import type { HiddenChange } from '../plan/codes.js';
import type { DriftItem } from '../plan/types.js';

/*
 * The only place a drift item becomes a sentence (plan/codes.ts DriftDetail, docs/codes.md): the
 * text and Markdown views print it, and the JSON outputs add it as `message` (format 1.0).
 */

function hiddenSentence(h: HiddenChange): string {
  switch (h.code) {
    case 'secret-versions-moved':
      return `secret variable${h.paths.length > 1 ? 's' : ''} ${h.paths.join(', ')} rewritten outside converge (version-id moved since the last apply)`;
    case 'secret-hash-moved':
      return 'rewritten outside converge; the client secret may differ';
    default:
      return assertNever(h, 'hidden change');
  }
}

export function driftSentence(item: DriftItem): string {
  const address = addressKey(item);
  const paths = item.fields.map((f) => f.path).join(', ');
  const d = item.detail;
  switch (d.code) {
    case 'gone-live':
      return d.recreate
        ? `${address} is owned by converge but gone from the live service (deleted outside converge): apply will create it again`
        : `${address} is owned by converge but gone from the live service: apply will drop it from state`;
    case 'changed-outside':
      return `${address} was changed outside converge: ${paths}`;
    case 'manifest-changed':
      return `${address} has manifest changes not applied yet: ${paths}`;
    case 'manifest-removed':
      return `${address} was removed from the manifests: apply will delete it`;
    case 'hidden-change':
      return `${address}: a field converge cannot read may have changed: ${hiddenSentence(d.hidden)}; \`converge apply --rewrite ${address}\` sends the manifest's values again and settles it`;
    case 'legacy-text':
      return d.text;
    default:
      return assertNever(d, 'drift detail');
  }
}

/** A drift item as the JSON outputs give it: the code and data, and the sentence as `message`. */
export type JsonDriftItem = DriftItem & { message: string };

export function jsonDriftItem(item: DriftItem): JsonDriftItem {
  return { ...item, message: driftSentence(item) };
}

/** Back from JSON output; an item written by an older converge has only the sentence, kept as written. */
export function driftItemFromJson(item: DriftItem & { message?: string }): DriftItem {
  const { message, ...rest } = item;
  return { ...rest, detail: rest.detail ?? { code: 'legacy-text', text: message ?? '' } };
}
