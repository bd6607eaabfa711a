import { readFile } from 'node:fs/promises';

/** One input variable of a module version (what `module-variables` lists, docs/reference/hcp-terraform-api.md §1.3). */
export interface TfeSeedInput {
  name: string;
  type: string;
  description?: string;
  required?: boolean;
  sensitive?: boolean;
}

export interface TfeSeedModule {
  name: string;
  provider: string;
  /** Versions already ingested (status `ok`). */
  versions: string[];
  /** Inputs, the same for every version. */
  inputs: TfeSeedInput[];
}

/** The starting world of the simulator: one organization, its tokens, projects, agent pools and private modules. */
export interface TfeSeed {
  organization: string;
  email?: string;
  tokens: { user: string; team: string; organization: string };
  /** The first project is the default project. */
  projects: { name: string; description?: string | null }[];
  agentPools: { name: string }[];
  registryModules: TfeSeedModule[];
}

const fail = (file: string, what: string): never => {
  throw new Error(`TFE sandbox seed ${file}: ${what}`);
};

const str = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** Checks the shape of a seed (from a file, so a typo says where it is). */
export function validateSeed(value: unknown, file = '(inline)'): TfeSeed {
  if (typeof value !== 'object' || value === null) return fail(file, 'must be a JSON object');
  const s = value as Partial<TfeSeed>;
  if (!str(s.organization)) fail(file, '"organization" must be a non-empty string');
  const t = s.tokens;
  if (!t || !str(t.user) || !str(t.team) || !str(t.organization)) fail(file, '"tokens" needs non-empty "user", "team" and "organization"');
  if (t && new Set([t.user, t.team, t.organization]).size !== 3) fail(file, 'the three tokens must differ');
  if (!Array.isArray(s.projects) || s.projects.length === 0 || !s.projects.every((p) => str(p?.name))) {
    fail(file, '"projects" must be a non-empty list of { name }');
  }
  if (!Array.isArray(s.agentPools) || !s.agentPools.every((p) => str(p?.name))) fail(file, '"agentPools" must be a list of { name }');
  if (!Array.isArray(s.registryModules)) fail(file, '"registryModules" must be a list');
  (s.registryModules ?? []).forEach((m, i) => {
    const at = `registryModules[${i}]`;
    if (!str(m?.name) || !str(m.provider)) fail(file, `${at} needs "name" and "provider"`);
    if (!Array.isArray(m.versions) || !m.versions.every(str)) fail(file, `${at}.versions must be a list of version strings`);
    if (!Array.isArray(m.inputs) || !m.inputs.every((v) => str(v?.name) && str(v.type))) fail(file, `${at}.inputs must be a list of { name, type }`);
  });
  return s as TfeSeed;
}

export async function loadSeedFile(file: string): Promise<TfeSeed> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return fail(file, `cannot be read: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return fail(file, `is not JSON: ${(e as Error).message}`);
  }
  return validateSeed(value, file);
}
