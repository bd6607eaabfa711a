import { ConvergeError } from '../diagnostics/errors.js';
import type { HttpResponse } from './types.js';

/** Which service a client talks to, so an answer from something else can say which setting to check. */
export interface ServiceIdentity {
  /** For people: `Nomad`, `HCP Terraform`. */
  name: string;
  /** The setting that holds the address: `NOMAD_ADDR`, `TFE_ADDRESS`. */
  addressSetting: string;
  /**
   * How the service is recognised: one read the client sends before its first request, whose answer
   * only this service gives. Without it only web pages are caught (below).
   */
  probe?: ServiceProbe;
}

/** A read that tells this service from anything else at the address (docs/reference/service-identity.md). */
export interface ServiceProbe {
  /** Path below the client's base address. */
  path: string;
  /** What this service's answer carries, for the error: `a JSON list of region names`. */
  expected: string;
  /** Whether the answer is this service's own. Only answers below HTTP 500 are asked. */
  recognise(res: HttpResponse): boolean;
}

const MAX_TITLE = 80;

/**
 * Whether a body is a web page. Neither API ever answers with one: Nomad's errors are plain text and
 * its answers JSON (docs/reference/nomad-api.md §6), HCP Terraform's are JSON:API (docs/reference/hcp-terraform-api.md §8). A page
 * comes from something else at that address: a web server's 404, a login portal, the wrong port.
 */
export function isWebPage(res: HttpResponse): boolean {
  if (/^\s*text\/html\b/i.test(res.headers['content-type'] ?? '')) return true;
  return /^\s*<(!doctype html|html[\s>])/i.test(res.text.slice(0, 200));
}

/** The page's `<title>`, shortened, or undefined: enough to recognise it without quoting the page. */
export function pageTitle(text: string): string | undefined {
  const m = /<title[^>]*>([^<]*)<\/title>/i.exec(text.slice(0, 4096));
  const title = m?.[1]?.replace(/\s+/g, ' ').trim();
  if (!title) return undefined;
  return title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE)}…` : title;
}

/** `http.wrong-server`: names the address and the setting to check, never quotes the page. */
export function wrongServerError(service: ServiceIdentity, address: string, request: string, res: HttpResponse): ConvergeError {
  const title = pageTitle(res.text);
  return new ConvergeError(
    'http.wrong-server',
    `${address} answered ${request} with a web page (HTTP ${res.status}${title ? `, "${title}"` : ''}), not the ${service.name} API: is ${service.addressSetting} right?`,
    {
      source: 'user',
      status: res.status,
      hint: `${service.addressSetting} is ${address}; set it to the address of the ${service.name} API itself (not a web UI, a proxy's page or another port)`,
    },
  );
}

/**
 * `http.wrong-service`: the probe's answer is not this service's (another API at the address, e.g.
 * HCP Terraform's address in NOMAD_ADDR). Nothing this address answers can be trusted: a 404 would
 * read as "no state yet" or "not found, create it".
 */
export function wrongServiceError(service: ServiceIdentity, probe: ServiceProbe, address: string, request: string, res: HttpResponse): ConvergeError {
  const other = res.headers['tfp-appname'] ?? (res.headers['x-nomad-index'] !== undefined ? 'Nomad' : undefined);
  const seems = other && other !== service.name ? `; it answers as ${other}` : '';
  return new ConvergeError(
    'http.wrong-service',
    `${address} is not the ${service.name} API: ${request} answered HTTP ${res.status} without ${probe.expected}${seems}. Is ${service.addressSetting} right?`,
    {
      source: 'user',
      status: res.status,
      hint: `${service.addressSetting} is ${address}; set it to the address of the ${service.name} API`,
    },
  );
}
