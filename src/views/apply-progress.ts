import { isEvent, type ConvergeEvent, type TypedEvent } from '../model/events.js';
import { outcomeSentence } from './apply-result.js';

/*
 * The progress line of a finished change. The engine words nothing: its `apply.change.done` event carries
 * the outcome's coded detail in its data (EventPayloads['apply.change.done']), and its message falls back to
 * the bare code; this words it as the apply result does, so a person reads "update succeeded (updated
 * nocode-…: versionPin)", not "(done-id)".
 */
export function progressText(event: ConvergeEvent | TypedEvent): string {
  if (!isEvent(event, 'apply.change.done')) return event.message;
  const { kind, name, action, status, detail, message, errorCode } = event.data;
  // A provider's own words, or a failure with an error (whose words the message carries), stay as the engine said them.
  if (detail === undefined || message !== undefined || (status === 'failed' && errorCode !== undefined)) return event.message;
  return `${kind}/${name}: ${action} ${status} (${outcomeSentence(action, detail)})`;
}
