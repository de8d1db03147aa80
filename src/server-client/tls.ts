// Owns the ServerClient's TLS options (which name a certificate is checked against) and how a TLS trust failure is worded.
import { isIP } from 'node:net';

/**
 * TLS options for one https host. A host name is sent as SNI and checked against the certificate's DNS names; an IP
 * address is not sent as SNI (RFC 6066 forbids it, and Node warns DEP0123), and Node then checks the IP SANs itself.
 */
export function tlsNameOptions(hostname: string): { servername?: string } {
  return isIP(hostname) ? {} : { servername: hostname };
}

/** OpenSSL/Node codes meaning the chain does not lead to a CA this client trusts. */
const UNTRUSTED_CHAIN = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
]);
const OTHER_CERT = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_REVOKED', 'HOSTNAME_MISMATCH']);

/**
 * The message for a socket error that is a certificate failure, or undefined for any other error. A trust failure is
 * said as such (never "unreachable"), with the flag that fixes it; the message names no path, host secret or credential.
 */
export function certificateFailure(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  if (UNTRUSTED_CHAIN.has(code)) return `the server's certificate is not trusted (${code}): pass --server-ca FILE (the PEM CA that signed it)`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return `the server's certificate does not name the host in --server-url (${code}): use a URL whose host the certificate lists`;
  if (OTHER_CERT.has(code)) return `the server's certificate is not valid now (${code}): renew it on the server`;
  return undefined;
}
