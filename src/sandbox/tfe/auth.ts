import { unauthorized } from './errors.js';
import type { Store, TokenKind } from './model.js';

/**
 * `Authorization: Bearer <token>` (docs/reference/hcp-terraform-api.md §8). 401 only for a missing or unknown token; a known
 * token without access gets 404 elsewhere. Three kinds: user, team and organization tokens (docs/reference/hcp-terraform-api.md §8, TOK).
 */
export function authenticate(store: Store, token: string | undefined): TokenKind {
  if (token === undefined || token === '') throw unauthorized();
  for (const kind of ['user', 'team', 'organization'] as const) {
    if (store.tokens[kind] === token) return kind;
  }
  throw unauthorized();
}
