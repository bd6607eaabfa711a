import type { AnyDesired, KindDocument } from '../model/desired.js';
import type { LoginRule, LoginWorld } from './explain.js';

/** A document with its kind and spec: one from the manifests, or one `converge export` built from a live object. */
type Doc = KindDocument & { at?: string };

/** The names of the auth methods among the documents. */
export function methodNames(objects: readonly { kind: string; name: string }[]): string[] {
  return objects.filter((o) => o.kind === 'NomadAuthMethod').map((o) => o.name);
}

/**
 * The login world of one auth method as the manifests describe it (the desired state). Roles and
 * policies are every NomadAclRole and NomadAclPolicy document; undefined when no document names the method.
 */
export function worldFromDesired(objects: readonly AnyDesired[], method: string): LoginWorld | undefined {
  return worldFromDocuments(
    objects.map((o) => ({ kind: o.kind, name: o.name, spec: o.spec, at: `${o.range.file}:${o.range.start.line}` }) as Doc),
    method,
  );
}

/** The login world of one auth method from documents (manifests, or live objects as export builds them). */
export function worldFromDocuments(objects: readonly Doc[], method: string): LoginWorld | undefined {
  const m = objects.find((o) => o.kind === 'NomadAuthMethod' && o.name === method);
  if (!m || m.kind !== 'NomadAuthMethod') return undefined;
  const rules: LoginRule[] = [];
  const roles = new Map<string, { policies: readonly string[] }>();
  const policies = new Map<string, { rules: string }>();
  for (const o of objects) {
    if (o.kind === 'NomadBindingRule' && o.spec.authMethod === method) {
      rules.push({
        label: o.name,
        ...(o.at !== undefined ? { at: o.at } : {}),
        bindType: o.spec.bindType,
        ...(o.spec.selector !== undefined ? { selector: o.spec.selector } : {}),
        ...(o.spec.bindName !== undefined ? { bindName: o.spec.bindName } : {}),
      });
    } else if (o.kind === 'NomadAclRole') roles.set(o.name, { policies: o.spec.policies });
    else if (o.kind === 'NomadAclPolicy') policies.set(o.name, { rules: o.spec.rules });
  }
  const s = m.spec;
  return {
    method: {
      name: m.name,
      type: s.type,
      tokenLocality: s.tokenLocality,
      maxTokenTtl: s.maxTokenTtl,
      ...(s.tokenNameFormat !== undefined ? { tokenNameFormat: s.tokenNameFormat } : {}),
      config: { ...(s.config.claimMappings ? { claimMappings: s.config.claimMappings } : {}), ...(s.config.listClaimMappings ? { listClaimMappings: s.config.listClaimMappings } : {}) },
    },
    rules,
    roles,
    policies,
  };
}
