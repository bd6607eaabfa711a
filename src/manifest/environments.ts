import { basename, dirname, join, posix } from 'node:path';
import type { Diagnostic, SourceRange } from '../diagnostics/types.js';
import { didYouMean } from '../diagnostics/suggest.js';
import type { EnvironmentSpec, SettingsSpec } from '../model/specs.js';
import type { YamlTree } from './yaml-tree.js';
import { rangeAt } from './schema-errors.js';

/**
 * Environments (docs/environments.md): the Settings document names targets under `spec.environments`,
 * a run picks one with `--env NAME`, and manifests take that environment's values with `{ fromValue: NAME }`.
 * The convention is Pulumi's stacks and Terraform's workspaces with a `.tfvars` per workspace: one set of
 * manifests, one state per environment, values per environment kept next to the settings they go with.
 */

/** The key of a value reference: a mapping with this one key is replaced by the environment's value. */
export const VALUE_REF_KEY = 'fromValue';

/** The environment a run is for, as the loader resolved it. */
export interface ChosenEnvironment {
  name: string;
  spec: EnvironmentSpec;
  /** Where its Settings document is, for "add it under …" hints. */
  at?: SourceRange;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `v` is a `{ fromValue: NAME }` reference (exactly that one key, a string). */
function valueRef(v: unknown): string | undefined {
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === VALUE_REF_KEY && typeof v[VALUE_REF_KEY] === 'string' ? v[VALUE_REF_KEY] : undefined;
}

/** Whether a reference is anywhere in `v`: a walk that builds no pointers, for the documents (most) that hold none. */
function holdsValueRef(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(holdsValueRef);
  if (!isPlainObject(v)) return false;
  return valueRef(v) !== undefined || Object.values(v).some(holdsValueRef);
}

const escapePointer = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');

const envList = (names: readonly string[]): string => (names.length === 0 ? '(none)' : names.join(', '));

/**
 * The environment named by `--env`, or a diagnostic saying why there is none: the Settings document
 * declares no environments, or none of that name (with the known ones and the closest).
 */
export function chooseEnvironment(name: string, settings: { spec: SettingsSpec; tree: YamlTree } | undefined, out: Diagnostic[]): ChosenEnvironment | undefined {
  const declared = settings?.spec.environments ?? {};
  const names = Object.keys(declared).sort();
  const spec = declared[name];
  if (spec !== undefined && settings) return { name, spec, at: rangeAt(settings.tree, `/spec/environments/${escapePointer(name)}`) };
  if (names.length === 0) {
    out.push({
      severity: 'error',
      code: 'environment.none-declared',
      summary: `--env ${name}: ${settings ? 'the Settings document declares no environments' : 'there is no Settings document, so no environments'}`,
      detail: 'Leave out --env, or declare environments in a Settings document: spec.environments.<name> with its own nomad, tfe, state and values (docs/environments.md).',
      ...(settings ? { range: settings.tree.range } : {}),
    });
    return undefined;
  }
  const guess = didYouMean(name, names);
  out.push({
    severity: 'error',
    code: 'environment.unknown',
    summary: `unknown environment \`${name}\` (--env)`,
    detail: `${guess ? `Did you mean \`${guess}\`? ` : ''}Environments: ${envList(names)}. Pass one of them, or add \`${name}\` under spec.environments.`,
    ...(settings ? { range: rangeAt(settings.tree, '/spec/environments') } : {}),
  });
  return undefined;
}

/**
 * A document's value with every `{ fromValue: NAME }` replaced by the chosen environment's value
 * (the same object when it holds no reference), and the JSON pointers of the references left unresolved.
 * Such a reference is an error at the reference, naming the environment and the fix (`report`; not when the
 * environment asked for does not exist: that error says it all); it is left in place, and the caller keeps
 * the schema from reporting it a second time in other words.
 */
export function substituteValues(
  tree: YamlTree,
  value: Record<string, unknown>,
  env: ChosenEnvironment | undefined,
  declared: readonly string[],
  out: Diagnostic[],
  report = true,
): { value: Record<string, unknown>; unresolved: string[] } {
  if (!holdsValueRef(value)) return { value, unresolved: [] };
  const unresolved: string[] = [];
  const walk = (v: unknown, pointer: string): unknown => {
    const ref = valueRef(v);
    if (ref !== undefined) {
      const next = resolveRef(ref, v, rangeAt(tree, `${pointer}/${VALUE_REF_KEY}`));
      if (next === v) unresolved.push(pointer);
      return next;
    }
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      v.forEach((item, i) => {
        const next = walk(item, `${pointer}/${i}`);
        if (next !== item) (copy ??= [...v])[i] = next;
      });
      return copy ?? v;
    }
    if (isPlainObject(v)) {
      let copy: Record<string, unknown> | undefined;
      for (const [k, item] of Object.entries(v)) {
        const next = walk(item, `${pointer}/${escapePointer(k)}`);
        if (next !== item) (copy ??= { ...v })[k] = next;
      }
      return copy ?? v;
    }
    return v;
  };
  const resolveRef = (ref: string, original: unknown, range: SourceRange): unknown => {
    if (!report) return original;
    if (env === undefined) {
      out.push({
        severity: 'error',
        code: 'environment.value-without-env',
        summary: `\`{ ${VALUE_REF_KEY}: ${ref} }\` needs an environment`,
        detail:
          declared.length > 0
            ? `Pass --env with one of: ${envList(declared)}.`
            : 'Declare environments with values in the Settings document (spec.environments.<name>.values) and pass --env NAME, or write the value here.',
        range,
      });
      return original;
    }
    const values = env.spec.values ?? {};
    if (Object.prototype.hasOwnProperty.call(values, ref)) return values[ref];
    const known = Object.keys(values).sort();
    const guess = didYouMean(ref, known);
    const where = env.at ? ` (${env.at.file}:${env.at.start.line})` : '';
    out.push({
      severity: 'error',
      code: 'environment.value-unknown',
      summary: `environment \`${env.name}\` has no value \`${ref}\``,
      detail: `${guess ? `Did you mean \`${guess}\`? ` : ''}Add \`${ref}\` under spec.environments.${env.name}.values${where}, or fix the name. Values of ${env.name}: ${envList(known)}.`,
      range,
    });
    return original;
  };
  return { value: walk(value, '') as Record<string, unknown>, unresolved };
}

/** `dir/file` → `dir/envs/<name>/file`: the state of one environment, next to the shared one's place. */
function perEnvironmentPath(path: string, name: string, separator: 'file' | 'variable'): string {
  if (separator === 'variable') return posix.join(path, 'envs', name);
  return join(dirname(path), 'envs', name, basename(path));
}

/**
 * The Settings spec a run for `env` uses: its nomad, tfe and state fields over the top-level ones. Without
 * its own state path, the state lives under `envs/<name>` of the top-level one, so two environments (and
 * a run without --env) never share a state, and adding environments to a repository leaves its old state where it was.
 */
export function settingsForEnvironment(spec: SettingsSpec, env: ChosenEnvironment): SettingsSpec {
  const e = env.spec;
  const base = spec.state ?? { backend: 'local' as const };
  const backend = e.state?.backend ?? base.backend;
  const sameBackend = backend === base.backend;
  const merged = { ...(sameBackend ? base : {}), ...e.state, backend } as Record<string, unknown>;
  // An environment's own path with the top-level lock path would share one lock with another state.
  if (e.state?.path !== undefined && e.state.lockPath === undefined) delete merged.lockPath;
  if (e.state?.path === undefined) {
    const basePath = sameBackend && base.path !== undefined ? base.path : backend === 'local' ? '.converge/state.json' : 'converge/state';
    merged.path = perEnvironmentPath(basePath, env.name, backend === 'local' ? 'file' : 'variable');
    if (backend === 'nomad' && e.state?.lockPath === undefined && sameBackend && base.backend === 'nomad' && base.lockPath !== undefined) {
      merged.lockPath = perEnvironmentPath(base.lockPath, env.name, 'variable');
    }
  }
  const out: SettingsSpec = { ...spec, state: merged as SettingsSpec['state'] };
  const region = e.nomad?.region ?? spec.nomad?.region;
  if (region !== undefined) out.nomad = { ...spec.nomad, region };
  const organization = e.tfe?.organization ?? spec.tfe?.organization;
  if (organization !== undefined) out.tfe = { ...spec.tfe, organization };
  return out;
}
