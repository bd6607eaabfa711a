import type { Action } from '../model/action.js';
import type { ConvergeEvent } from '../model/events.js';
import type { OutcomeDetail } from '../plan/codes.js';
import { outcomeSentence } from './apply-result.js';

/*
 * The progress line of a finished change. The engine words nothing: its `apply.change.done` event carries
 * the outcome's coded detail in its data, and its message falls back to the bare code; this words it as the
 * apply result does, so a person reads "update succeeded (updated nocode-…: versionPin)", not "(done-id)".
 */
export function progressText(event: ConvergeEvent): string {
  if (event.code !== 'apply.change.done') return event.message;
  const data = event.data ?? {};
  const detail = data.detail as OutcomeDetail | undefined;
  // A provider's own words, or a failure with an error (whose words the message carries), stay as the engine said them.
  if (detail === undefined || typeof detail !== 'object' || typeof data.message === 'string' || (data.status === 'failed' && typeof data.errorCode === 'string')) return event.message;
  const { kind, name, action, status } = data as { kind: string; name: string; action: Action; status: string };
  return `${kind}/${name}: ${action} ${status} (${outcomeSentence(action, detail)})`;
}
