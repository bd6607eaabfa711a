import type { JsonValue } from '../../model/json.js';
import type { RuleSink } from '../rule-sink.js';
import type { NoCodeModuleSpec } from '../no-code-module/spec.js';
import type { NoCodeWorkspaceSpec } from './spec.js';

function sameOption(option: JsonValue, value: string): boolean {
  if (option === null) return false;
  return typeof option === 'object' ? JSON.stringify(option) === value : String(option) === value;
}

/** Rules of the workspace itself; the module reference and option checks need the other documents. */
export function checkNoCodeWorkspace(d: RuleSink, spec: NoCodeWorkspaceSpec): void {
  const mode = spec.executionMode ?? 'remote';
  // Spec: agent-pool-id is required when execution-mode is agent and must not be given otherwise.
  if (mode === 'agent' && spec.agentPoolId === undefined) {
    d.error('nocode.workspace.agent-pool', '/spec/executionMode', 'execution mode agent needs `spec.agentPoolId`', 'Add agentPoolId: the ID of an agent pool of the organization (apool-…).');
  } else if (mode !== 'agent' && spec.agentPoolId !== undefined) {
    d.error(
      'nocode.workspace.agent-pool',
      '/spec/agentPoolId',
      '`spec.agentPoolId` is only allowed with executionMode agent',
      'Set executionMode: agent, or remove agentPoolId.',
    );
  }
  const seen = new Map<string, number>();
  (spec.variables ?? []).forEach((v, i) => {
    const key = `${v.category ?? 'terraform'}/${v.key}`;
    const first = seen.get(key);
    if (first !== undefined) {
      d.error(
        'nocode.workspace.variable-duplicate',
        `/spec/variables/${i}/key`,
        `${v.category ?? 'terraform'} variable \`${v.key}\` is set twice`,
        `spec.variables[${first}] sets it already; keep one.`,
      );
    } else seen.set(key, i);
  });
}

/** A variable whose module lists options for it must use one of them (the API would refuse it at run time). */
export function checkWorkspaceOptions(d: RuleSink, spec: NoCodeWorkspaceSpec, module: NoCodeModuleSpec): void {
  (spec.variables ?? []).forEach((v, i) => {
    if ((v.category ?? 'terraform') !== 'terraform' || v.value === undefined || typeof v.value !== 'string') return;
    const opt = (module.variableOptions ?? []).find((o) => o.variableName === v.key);
    if (!opt?.options || opt.options.length === 0) return;
    if (opt.options.some((o) => sameOption(o, v.value as string))) return;
    const shown = v.sensitive ? 'this value' : `"${v.value}"`;
    d.error(
      'nocode.workspace.variable-option',
      `/spec/variables/${i}/value`,
      `${shown} is not an allowed value of \`${v.key}\` (module ${spec.module} allows ${opt.options.map((o) => JSON.stringify(o)).join(', ')})`,
      `Use one of the options, or add this value to the module's variableOptions.`,
    );
  });
}
