/**
 * JSON:API error documents as HCP Terraform writes them (docs/reference/hcp-terraform-api.md §8): `{"errors":[{status,title,detail?,source?}]}`,
 * `status` a string, titles lowercase phrases. The one exception, the documented 429 body with a numeric status,
 * lives in rate-limit.ts.
 */
export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer: string };
}

/** Thrown by handlers; the server turns it into the error document. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorObject[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.detail ?? e.title).join('; '));
  }
}

/** 404 for missing resources and for callers not allowed to see them alike (docs/reference/hcp-terraform-api.md §8). */
export const notFound = (): ApiError => new ApiError(404, [{ status: '404', title: 'not found' }]);

/** 401 only for a missing or unknown token (docs/reference/hcp-terraform-api.md §8; title from terraform's login-tfe-server stub). */
export const unauthorized = (): ApiError => new ApiError(401, [{ status: '401', title: 'unauthorized' }]);

/** 422 for a field: title `invalid attribute` and a pointer into the request (docs/reference/hcp-terraform-api.md §8, the quoted real 422). */
export const invalid = (pointer: string, detail: string): ApiError =>
  new ApiError(422, [{ status: '422', title: 'invalid attribute', detail, source: { pointer } }]);

/** 422 without a pointer: model-level validation (docs/reference/hcp-terraform-api.md §1.1 quotes this title for the version-pin failure). */
export const unprocessable = (detail: string): ApiError => new ApiError(422, [{ status: '422', title: 'unprocessable entity', detail }]);

export const badRequest = (detail: string, title = 'bad request'): ApiError => new ApiError(400, [{ status: '400', title, detail }]);

export const conflict = (detail: string): ApiError => new ApiError(409, [{ status: '409', title: 'conflict', detail }]);

/** 415 when a mutating request lacks `Content-Type: application/vnd.api+json` (docs/reference/hcp-terraform-api.md §8, go-tfe d107af1c). */
export const unsupportedMediaType = (): ApiError =>
  new ApiError(415, [
    {
      status: '415',
      title: 'unsupported media type',
      detail: 'Content-Type must be application/vnd.api+json',
    },
  ]);

export const errorDocument = (errors: ErrorObject[]): { errors: ErrorObject[] } => ({ errors });
