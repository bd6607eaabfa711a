import type { RuleSink } from '../rule-sink.js';
import type { NoCodeModuleSpec } from './spec.js';

export function checkNoCodeModule(d: RuleSink, spec: NoCodeModuleSpec): void {
  const seen = new Map<string, number>();
  (spec.variableOptions ?? []).forEach((o, i) => {
    const first = seen.get(o.variableName);
    if (first !== undefined) {
      d.error(
        'nocode.module.variable-options-duplicate',
        `/spec/variableOptions/${i}/variableName`,
        `variable options for \`${o.variableName}\` are given twice`,
        `Merge this entry with spec.variableOptions[${first}]: one set of options per variable.`,
      );
    } else seen.set(o.variableName, i);
  });
}
