/*
 * Names for exported documents and for the environment variables of secret placeholders.
 * Manifest names of auth methods and workspaces must match `^[A-Za-z0-9_-]+$` (schemas/), so the
 * same character set is used for every derived name.
 */

/** A manifest-safe name: runs of other characters become one `-`, ends trimmed; never empty. */
export function manifestName(text: string, fallback = 'unnamed'): string {
  const cleaned = text
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  return (cleaned === '' ? fallback : cleaned).slice(0, 128);
}

/** Hands out names, adding `-2`, `-3`, … to repeats, in the order asked (callers ask in a stable order). */
export class NameAllocator {
  private readonly used = new Set<string>();

  constructor(private readonly separator = '-') {}

  take(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.used.has(name); n++) name = `${wanted}${this.separator}${n}`;
    this.used.add(name);
    return name;
  }
}

/**
 * An environment-variable name (`[A-Za-z_][A-Za-z0-9_]*`, the rule `fromEnv` is validated with):
 * upper case, other characters as `_`, a leading digit prefixed with `_`.
 */
export function envName(...parts: string[]): string {
  const joined = parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '');
  const name = joined === '' ? 'SECRET' : joined;
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/**
 * Go's `Duration.String()` writes `1h0m0s` and `30m0s` (docs/reference/nomad-api.md §1.3); the manifest
 * accepts either, and `1h` / `30m` read better. Equal by value, so the plan sees no change.
 */
export function shortDuration(text: string): string {
  if (!/^(\d+h)?(\d+m)?(\d+(\.\d+)?s)?$/.test(text)) return text;
  return text.replace(/(h|m)0s$/, '$1').replace(/h0m$/, 'h').replace(/h0m(?=\d)/, 'h');
}
