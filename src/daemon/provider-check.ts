// Owns the input checks of an agent's provider settings (base URL, API key, headers): refused with the field named, nothing stored.
import { AppError } from '../shared/errors.js';

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Control characters (CR and LF included); a tab is allowed only inside a header value. */
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f]/;

const refuse = (field: string, why: string) => new AppError('invalid_input', `${field} ${why}`);

export function assertProviderSettings(p: { baseUrl?: string | undefined; apiKey?: string | undefined; headers?: Record<string, string> | undefined }): void {
  if (p.baseUrl !== undefined) {
    // The raw text is checked first: URL parsing would silently drop a tab or newline and trim spaces.
    if (/\s/.test(p.baseUrl) || CONTROL.test(p.baseUrl)) throw refuse('baseUrl', 'has a space or control character');
    let u: URL | undefined;
    try {
      u = new URL(p.baseUrl);
    } catch {
      u = undefined;
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw refuse('baseUrl', 'must be an http(s) URL');
  }
  // Security invariant: a CR/LF in a secret would add a line (a header the safe view never shows) where it is written.
  if (p.apiKey !== undefined && CONTROL.test(p.apiKey)) throw refuse('apiKey', 'has a control character');
  for (const [name, value] of Object.entries(p.headers ?? {})) {
    if (!TOKEN.test(name)) throw refuse('headers', 'has a name that is not an HTTP token (letters, digits, !#$%&\'*+.^_`|~-)');
    if (CONTROL_BUT_TAB.test(value)) throw refuse(`headers.${name}`, 'has a CR, LF or other control character in its value');
  }
}
