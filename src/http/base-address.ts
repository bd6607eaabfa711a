import { ConvergeError } from '../diagnostics/errors.js';

/** The client's base URL, checked: an address a person typed (NOMAD_ADDR, TFE_ADDRESS), so errors say how to fix it. */
export function parseBaseAddress(baseUrl: string): URL {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch (e) {
    throw new ConvergeError('http.bad-address', `not a valid URL: ${baseUrl}`, {
      source: 'user',
      hint: 'give a full address such as https://nomad.example.com:4646',
      cause: e,
    });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ConvergeError('http.bad-address', `unsupported scheme ${base.protocol} in ${base.origin}`, {
      source: 'user',
      hint: 'use an http:// or https:// address',
    });
  }
  return base;
}
