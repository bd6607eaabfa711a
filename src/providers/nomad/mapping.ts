import { formatGoDuration, parseGoDuration } from '../../model/go-duration.js';
import type { JsonValue } from '../../model/json.js';

/*
 * Wire ↔ model for Nomad, and the ONE place where Nomad's semantic equality is decided.
 *
 * The normalisers every Nomad kind's fields go through (durations, sets, maps, Go zero values). Each kind's field map is in its remote half (src/kinds/<kind>/remote/mapping.ts) and
 * uses these: both sides of the diff go through the same map, the live object first mapped back to the
 * manifest shape, so desired and live get the same paths and the same canonical values by construction. Paths are manifest style
 * (`type`, `maxTokenTtl`, `config.oidcClientId`, `config.claimMappings`).
 *
 * Unset, empty and zero are one value, and absent from the field map (shown as `null` in a plan):
 * empty strings, empty/null lists and maps, `false` config booleans, zero durations. Top-level
 * `type`, `tokenLocality`, `maxTokenTtl`, `tokenNameFormat` and `default` are always present.
 */

/**
 * Canonical duration text: Go `Duration.String()` (`1h` = `60m` = `3600s` → `1h0m0s`), `""` for zero.
 * Reference §1.3: responses are Duration.String() with zero written as `""`; requests accept Go
 * duration strings and nanosecond numbers (old servers, §12 #15960), and a leeway of `""` means 0.
 * Text that is not a duration is kept as written, so it shows up as a difference instead of vanishing.
 */
export function canonicalDuration(v: string | number | null | undefined): string {
  if (v === undefined || v === null || v === '') return '';
  const ns = typeof v === 'number' ? v : parseGoDuration(v.trim());
  if (ns === undefined) return String(v);
  return ns === 0 ? '' : formatGoDuration(ns);
}

/** Set-like lists compare as sets: order and repeats carry no meaning for audiences, issuers, URIs, scopes, algorithms and PEMs. */
function asSet(list: readonly string[] | null | undefined): string[] {
  return [...new Set(list ?? [])].sort();
}

/** Maps (claim mappings, extra headers) with sorted keys; `null` and `{}` are the same (§1.2: nil maps are `null`). */
function sortedMap(m: Readonly<Record<string, string>> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(m ?? {}).sort()) out[k] = (m ?? {})[k] ?? '';
  return out;
}

export type Fields = Record<string, JsonValue>;

export function putString(out: Fields, path: string, v: string | undefined): void {
  if (v !== undefined && v !== '') out[path] = v;
}
export function putTrue(out: Fields, path: string, v: boolean | undefined): void {
  // Go's zero value: a `false` and an absent boolean are the same config (§1.2, fields added later are absent on old servers).
  if (v === true) out[path] = true;
}
export function putSet(out: Fields, path: string, v: readonly string[] | null | undefined): void {
  const s = asSet(v);
  if (s.length > 0) out[path] = s;
}
export function putMap(out: Fields, path: string, v: Readonly<Record<string, string>> | null | undefined): void {
  const m = sortedMap(v);
  if (Object.keys(m).length > 0) out[path] = m;
}
export function putDuration(out: Fields, path: string, v: string | number | undefined): void {
  putString(out, path, canonicalDuration(v));
}
