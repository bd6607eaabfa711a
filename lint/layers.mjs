// @ts-check
/**
 * The layering docs/architecture.md draws, as a lint rule: each folder of src/ may import only the folders
 * listed for it (and itself). Providers and the sandbox count per service (`providers/nomad`, `sandbox/tfe`):
 * one service's code never reaches into another's, and nothing below the CLI reaches into a provider's own
 * files, only the interfaces at `providers/*.ts`. A kind's remote half (`kinds/<kind>/remote/`, unit
 * `kinds/remote`) talks to its service over the provider's connection, so it may import its own provider's
 * folder (the `provider` its definition names: a Nomad kind's remote half `providers/nomad`, never
 * `providers/tfe`); the offline kind code (`kinds`) may not import it, except a kind's `index.ts`, which
 * may load its OWN `remote/index.ts` lazily (`import()`) for its provider to find through the registry,
 * so decision 21 holds: the manifest loader loads no HTTP code.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const BELOW_PROVIDERS = ['async', 'diagnostics', 'http', 'kinds', 'model', 'plan', 'secrets', 'state'];

/** @type {Record<string, readonly string[]>} */
export const MAY_IMPORT = {
  diagnostics: [],
  async: [],
  model: ['diagnostics'],
  secrets: ['diagnostics', 'model'],
  kinds: ['diagnostics', 'model'],
  http: ['async', 'diagnostics', 'model'],
  plan: ['diagnostics', 'kinds', 'model'],
  // What Nomad does with a login, offline: the manifest loader runs login tests with it.
  login: ['diagnostics', 'kinds', 'model'],
  manifest: ['diagnostics', 'kinds', 'login', 'model', 'secrets'],
  state: ['async', 'diagnostics', 'http', 'kinds', 'model', 'secrets'],
  providers: BELOW_PROVIDERS,
  'providers/nomad': [...BELOW_PROVIDERS, 'providers'],
  // A kind's remote half: its endpoints over the provider's connection, its wire shapes, load, apply, export.
  // Its own provider's folder too (`ownProviderOf` below), no other service's.
  'kinds/remote': [...BELOW_PROVIDERS, 'providers'],
  'providers/tfe': [...BELOW_PROVIDERS, 'providers'],
  engine: ['diagnostics', 'kinds', 'model', 'plan', 'providers', 'state'],
  export: ['diagnostics', 'engine', 'kinds', 'model', 'providers'],
  views: ['diagnostics', 'engine', 'kinds', 'login', 'model', 'plan', 'providers'],
  // login: plan reports each login test's result and what its claims get before and after.
  operations: ['async', 'diagnostics', 'engine', 'export', 'http', 'kinds', 'login', 'manifest', 'model', 'plan', 'providers', 'secrets', 'state'],
  cli: ['async', 'diagnostics', 'engine', 'export', 'http', 'kinds', 'login', 'manifest', 'model', 'operations', 'plan', 'providers', 'sandbox', 'secrets', 'state', 'views'],
  // The simulators share no code with the clients they check; only the one clock (async/clock.ts), so a test
  // moves the simulators' time and the client's together.
  sandbox: ['async', 'sandbox/common', 'sandbox/nomad', 'sandbox/tfe'],
  'sandbox/common': ['async'],
  'sandbox/nomad': ['async', 'sandbox/common'],
  'sandbox/tfe': ['async', 'sandbox/common'],
};

/** Imports that cross the table on purpose, each with its reason. */
export const ALLOWED_CROSSINGS = [
  // The provider registry is the one place that lists the provider modules.
  { from: 'src/providers/registry.ts', to: 'src/providers/nomad/module.ts' },
  { from: 'src/providers/registry.ts', to: 'src/providers/tfe/module.ts' },
  // The Nomad Variables state backend is a Nomad client: it recognises Nomad as the provider does.
  { from: 'src/state/nomad/', to: 'src/providers/nomad/identity.ts' },
  // The event catalogue types `apply.change.done`'s data with an outcome's coded detail (plan/codes.ts imports nothing).
  { from: 'src/model/events.ts', to: 'src/plan/codes.ts' },
];

/**
 * `kinds`, `kinds/remote` (a kind's remote half), `providers/nomad`, `providers` (a file directly under
 * providers/), or undefined outside src/.
 */
export function unitOf(srcRelative) {
  const parts = srcRelative.split('/');
  if (parts.length < 2 || parts[0] === '..') return undefined;
  if (parts[0] === 'kinds' && parts[2] === 'remote' && parts.length > 3) return 'kinds/remote';
  if ((parts[0] === 'providers' || parts[0] === 'sandbox') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

/** `nomad-acl-role` → `nomad`: the provider a kind's definition (`src/kinds/<kind>/index.ts`) names; undefined if none. */
const providerOfKind = new Map();
function ownProviderOf(root, kindFolder) {
  if (!providerOfKind.has(kindFolder)) {
    let provider;
    try {
      provider = /\bprovider:\s*'([a-z0-9-]+)'/.exec(readFileSync(path.join(root, 'kinds', kindFolder, 'index.ts'), 'utf8'))?.[1];
    } catch {
      provider = undefined;
    }
    providerOfKind.set(kindFolder, provider);
  }
  return providerOfKind.get(kindFolder);
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps imports in src/ to the layering docs/architecture.md draws (lint/layers.mjs).' },
    schema: [],
  },
  create(context) {
    const root = path.resolve(context.cwd, 'src');
    const file = path.relative(root, context.physicalFilename).split(path.sep).join('/');
    const from = unitOf(file);
    if (from === undefined || MAY_IMPORT[from] === undefined) return {};
    /** @param {import('estree').Node} node @param {unknown} source @param {boolean} [lazy] an `import()` */
    const check = (node, source, lazy = false) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.relative(root, path.resolve(path.dirname(context.physicalFilename), source)).split(path.sep).join('/').replace(/\.js$/, '.ts');
      const to = unitOf(target);
      if (to === undefined || to === from || MAY_IMPORT[from].includes(to)) return;
      // A kind's definition loads its own remote half, lazily, and nothing else of it.
      const kindFolder = file.split('/')[1];
      if (lazy && from === 'kinds' && file === `kinds/${kindFolder}/index.ts` && target === `kinds/${kindFolder}/remote/index.ts`) return;
      // A kind's remote half may use its own provider's folder, no other service's.
      const own = from === 'kinds/remote' ? ownProviderOf(root, kindFolder) : undefined;
      if (own !== undefined && to === `providers/${own}`) return;
      if (from === 'kinds/remote' && to.startsWith('providers/')) {
        context.report({
          node,
          message: `src/${file} may not import src/${to} (${source}): a kind's remote half uses only its own provider's folder (${own === undefined ? 'its index.ts names no provider' : `providers/${own}`}); lint/layers.mjs.`,
        });
        return;
      }
      const reaches = (/** @type {string | RegExp} */ to) => (typeof to === 'string' ? `src/${target}` === to : to.test(`src/${target}`));
      if (ALLOWED_CROSSINGS.some((c) => `src/${file}`.startsWith(c.from) && reaches(c.to))) return;
      context.report({
        node,
        message: `src/${from} may not import src/${to} (${source}): dependencies point down, as docs/architecture.md draws them; lint/layers.mjs lists what each folder may import.`,
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, true),
    };
  },
};
