import type { SettingsSpec } from '../../model/specs.js';
import type { DocDiagnostics } from './context.js';

/**
 * A state name becomes part of an HCP Terraform tag (`converge-state:<name>`): kept to what every tag allows,
 * lowercase. A tag must start and end with a letter or number (docs/reference/workspace-tags.md), so the name,
 * which ends the tag, must end with one too: `team-a-` would fail the tag write after every create.
 */
const STATE_NAME = /^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$/;

export function checkSettings(d: DocDiagnostics, spec: SettingsSpec): void {
  const state = spec.state as Record<string, unknown> | undefined;
  if (typeof state?.name === 'string' && !STATE_NAME.test(state.name)) {
    d.error(
      'settings.state-name',
      '/spec/state/name',
      `\`spec.state.name\` "${state.name}" is not a valid state name`,
      'Use 1 to 64 lowercase letters, digits, hyphens and underscores, starting and ending with a letter or digit (e.g. team-payments): it becomes the workspace tag converge-state:<name>, and HCP Terraform refuses a tag that ends with - or _.',
    );
  }
  if (state?.backend !== 'local') return;
  for (const field of ['lockPath', 'namespace']) {
    if (state[field] !== undefined) {
      d.error(
        'settings.state-field',
        `/spec/state/${field}`,
        `\`spec.state.${field}\` applies only to the nomad state backend`,
        'Remove it, or set backend: nomad.',
      );
    }
  }
}
