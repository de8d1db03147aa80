// Owns the Exec CLI credential source: the injected base URL and one no-follow read of the private token file, fail closed.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type CredentialSource = { ok: true; baseUrl: URL; token: string } | { ok: false; reason: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const ROOT_PATH = /^\/api\/internal\/exec\/servers\/[A-Za-z0-9._~-]{1,200}\/agents\/[A-Za-z0-9._~-]{1,200}\/?$/;
const TOKEN = /^[A-Za-z0-9._~+/=-]{1,512}$/;
const MAX_TOKEN_FILE = 4096;

/** The base URL must be the loopback process-authorization root; the token is never sent anywhere else. */
export function parseBaseUrl(raw: string | undefined): URL | undefined {
  if (!raw) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return undefined;
  }
  // Security invariant: the bearer only ever goes to a loopback daemon over the canonical Exec root.
  if (u.protocol !== 'http:' || !LOOPBACK.has(u.hostname) || u.username || u.password || u.search || u.hash || !ROOT_PATH.test(u.pathname)) return undefined;
  return u;
}

/** Reads the token file exactly once, without following a symlink at the last component. */
function readTokenFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size === 0 || st.size > MAX_TOKEN_FILE) return undefined;
    const buf = Buffer.alloc(MAX_TOKEN_FILE + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n > MAX_TOKEN_FILE) return undefined;
    }
    const text = buf.subarray(0, n).toString('utf8').replace(/\r?\n$/, '');
    return TOKEN.test(text) ? text : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Resolves AGENTTEAM_EXEC_BASE_URL + AGENTTEAM_EXEC_TOKEN_FILE. Security invariant: there is no fallback to
 * AGENTTEAM_EXEC_TOKEN or any other variable, and reasons never contain the token or the file path.
 */
export function loadCredentialSource(env: NodeJS.ProcessEnv): CredentialSource {
  const baseUrl = parseBaseUrl(env.AGENTTEAM_EXEC_BASE_URL);
  if (!baseUrl) return { ok: false, reason: 'AGENTTEAM_EXEC_BASE_URL is missing or is not the loopback Exec root' };
  const file = env.AGENTTEAM_EXEC_TOKEN_FILE;
  if (!file) return { ok: false, reason: 'AGENTTEAM_EXEC_TOKEN_FILE is not set' };
  const token = readTokenFile(file);
  if (token === undefined) return { ok: false, reason: 'the Exec token file is missing, unreadable, empty or invalid' };
  return { ok: true, baseUrl, token };
}
