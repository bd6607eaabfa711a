import type { SettingsSpec } from '../../model/specs.js';
import type { DocDiagnostics } from './context.js';

export function checkSettings(d: DocDiagnostics, spec: SettingsSpec): void {
  const state = spec.state as Record<string, unknown> | undefined;
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
