/**
 * A value that may hold a secret: a literal string, or a reference resolved at plan/apply time.
 * Manifests, plans and state keep only the reference (or a salted digest), never the value.
 */
export type SecretRef = { fromEnv: string } | { fromFile: string };
export type SecretInput = string | SecretRef;

export function isSecretRef(v: unknown): v is SecretRef {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.fromEnv === 'string' || typeof o.fromFile === 'string';
}
