import { ConvergeError } from '../diagnostics/errors.js';

/*
 * What to do about a request that never got an answer, by Node's error code. A certificate the client
 * refused has three different fixes: trust its CA, use a name it carries, or renew it. Saying "trust the
 * CA" for a name mismatch sent people to the wrong one.
 */

/** Node's codes for a certificate that failed verification. */
export const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The names the certificate carries (`DNS:a, IP Address:1.2.3.4`), from Node's error or its cause. */
function certificateNames(original: unknown): string | undefined {
  let cur: unknown = original;
  for (let depth = 0; depth < 4 && typeof cur === 'object' && cur !== null; depth++) {
    const cert = (cur as { cert?: { subjectaltname?: unknown; subject?: { CN?: unknown } } }).cert;
    if (typeof cert?.subjectaltname === 'string' && cert.subjectaltname !== '') return cert.subjectaltname;
    if (typeof cert?.subject?.CN === 'string') return `CN=${cert.subject.CN}`;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function networkHint(code: string, origin: string, original: unknown): string {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = certificateNames(original);
    return (
      `the certificate ${origin} presented is for another name${names ? ` (${names})` : ''}, not ${new URL(origin).hostname}: ` +
      'set NOMAD_ADDR / TFE_ADDRESS to a name the certificate carries, or reissue it for this name (trusting another CA will not help)'
    );
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return `the certificate ${origin} presented is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not valid yet'}: renew it on the server (or check this machine's clock)`;
  }
  if (TLS_CODES.has(code)) {
    return `the certificate ${origin} presented is not trusted: point NOMAD_CACERT (Nomad) or NODE_EXTRA_CA_CERTS (HCP Terraform / Terraform Enterprise) at the CA that signed it, or fix the certificate`;
  }
  return `check that ${origin} is reachable from here (address, port, TLS settings, proxies)`;
}

/** A few words on what a socket error code means, for the message ('' when the code speaks for itself). */
function describeCode(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return ' (connection refused: nothing listens there)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return ' (the connection was closed by the other side)';
    case 'ENOTFOUND':
      return ' (host name not found)';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return ' (timed out)';
    default:
      return '';
  }
}

/** `http.network`: a request that never got an answer once retries ran out, with what to do about it. */
export function networkError(request: string, origin: string, code: string | undefined, original: unknown): ConvergeError {
  const shown = code ?? 'network error';
  return new ConvergeError('http.network', `${request} failed: ${shown}${describeCode(shown)}`, {
    source: 'remote',
    retryable: true,
    hint: networkHint(shown, origin, original),
    cause: original,
  });
}
