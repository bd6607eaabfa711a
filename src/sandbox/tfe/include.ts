import { badRequest } from './errors.js';

/**
 * `include=` is a comma list (docs/reference/hcp-terraform-api.md §8); a value the endpoint does not know is a 400
 * (§1.3: 400 for an unknown include; the title and detail words are the sandbox's own).
 */
export function parseInclude(url: URL, allowed: readonly string[]): Set<string> {
  const raw = url.searchParams.get('include');
  const out = new Set<string>();
  if (raw === null || raw === '') return out;
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    if (!allowed.includes(part)) {
      throw badRequest(`Invalid include parameter: ${part}. Allowed: ${allowed.join(', ') || 'none'}`, 'invalid include parameter');
    }
    out.add(part);
  }
  return out;
}
