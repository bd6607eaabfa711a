/**
 * Errors the simulator answers with. Nomad writes every error as plain text (docs/reference/nomad-api.md §6),
 * so an HttpError is just a status, the exact text, and any headers that still go out (e.g. X-Nomad-Index on a 404).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(text);
  }
}

export const badRequest = (text: string): HttpError => new HttpError(400, text);

/** The one answer for every authentication or authorisation failure on these endpoints (docs/reference/nomad-api.md §6). */
export const permissionDenied = (): HttpError => new HttpError(403, 'Permission denied');

/** With ACLs switched off the ACL endpoints answer this (docs/reference/nomad-api.md §6). */
export const aclDisabled = (): HttpError => new HttpError(400, 'ACL support disabled');

/** Unknown `?region=` (nomad/structs/errors.go ErrNoRegionPath). */
export const noPathToRegion = (): HttpError => new HttpError(500, 'No path to region');

export const invalidMethod = (status: 400 | 405 = 405): HttpError => new HttpError(status, 'Invalid method');

/**
 * go-multierror v1.1.1 ListFormatFunc (docs/reference/nomad-api.md §3.2): `1 error occurred:\n\t* X\n\n` or
 * `N errors occurred:\n\t* X\n\t* Y\n\n`. Nested multierrors are just strings inside the bullet.
 */
export function multierror(errors: readonly string[]): string {
  if (errors.length === 1) return `1 error occurred:\n\t* ${errors[0]}\n\n`;
  return `${errors.length} errors occurred:\n\t${errors.map((e) => `* ${e}`).join('\n\t')}\n\n`;
}
