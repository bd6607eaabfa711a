import type { RuleSink } from './rule-sink.js';

/**
 * Nomad counts an ACL object's description in bytes (Go `len`: nomad/structs/acl.go
 * ACLBindingRule.Validate, ACLPolicy.Validate, ACLRole.Validate), not characters, so the schema's
 * maxLength (characters) cannot catch it.
 */
const MAX_DESCRIPTION_BYTES = 256;

/** `code` names the kind, e.g. `nomad.binding-rule.description-too-long`. */
export function checkDescriptionBytes(d: RuleSink, code: string, description: string | undefined): void {
  const bytes = description === undefined ? 0 : Buffer.byteLength(description, 'utf8');
  if (bytes <= MAX_DESCRIPTION_BYTES) return;
  d.error(
    code,
    '/spec/description',
    `\`spec.description\` is ${bytes} bytes; Nomad allows ${MAX_DESCRIPTION_BYTES}`,
    'Nomad counts bytes in UTF-8, not characters: letters such as é or ü take two bytes, most emoji four. Shorten it.',
  );
}
