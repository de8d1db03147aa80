// Owns GitHub App authentication: an installation token minted from the App's private key (an RS256 JWT, ≤ 10 min,
// to POST /app/installations/{id}/access_tokens), kept in the installation row until 5 minutes before it expires, so
// every server process shares it. The minting answer says whether the installation exists (404) or is suspended (403).
import { createPrivateKey, sign } from 'node:crypto';
import type { DomainDeps } from '../../server/context.js';
import { ProviderError, readUpTo } from './provider.js';
import type { InstallationRow } from './installations.js';

const RENEW_BEFORE_MS = 5 * 60_000;
const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** The App JWT: issued a minute in the past (clock drift), valid 9 minutes, signed RS256 with the App's key. */
export function appJwt(appId: number, privateKey: string, now: number): string {
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ iat: Math.floor(now / 1000) - 60, exp: Math.floor(now / 1000) + 540, iss: String(appId) }));
  let key;
  try {
    key = createPrivateKey(privateKey);
  } catch {
    throw new ProviderError('unauthorized', 'revoked');
  }
  return `${head}.${body}.${b64url(sign('RSA-SHA256', Buffer.from(`${head}.${body}`), key))}`;
}

/**
 * The credential for one provider call: the stored token, or for a GitHub App the cached installation token, minted
 * anew when it is missing or expires within 5 minutes. Failures are ProviderErrors (never the provider's body).
 */
export async function credentialOf(deps: DomainDeps, inst: InstallationRow, now: number): Promise<string> {
  if (inst.app_id === null || inst.app_id === undefined) return inst.token;
  if (inst.minted_token && Number(inst.minted_until) - RENEW_BEFORE_MS > now) return inst.minted_token;
  const url = `${inst.base_url}/app/installations/${Number(inst.installation_id)}/access_tokens`;
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', redirect: 'error', signal: AbortSignal.timeout(10_000), headers: { authorization: `Bearer ${appJwt(Number(inst.app_id), inst.private_key ?? '', now)}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'agentteam' } });
  } catch {
    throw new ProviderError('failed', 'unavailable');
  }
  // An access-token answer is a few hundred bytes; a longer one is cut here and fails to parse (never held whole).
  const text = (await readUpTo(res, 64 * 1024).catch(() => ({ text: '' }))).text;
  if (res.status === 404) throw new ProviderError('unauthorized', 'not_installed');
  if (res.status === 401) throw new ProviderError('unauthorized', 'revoked');
  if (res.status === 403 && res.headers.get('x-ratelimit-remaining') === '0') throw new ProviderError('failed', 'rate_limited', Number(res.headers.get('x-ratelimit-reset') ?? 0) * 1000 || now + 60_000);
  if (res.status === 403) throw new ProviderError('unauthorized', text.toLowerCase().includes('suspended') ? 'suspended' : 'not_granted');
  if (res.status !== 201) throw new ProviderError('failed', 'unavailable');
  let token: unknown;
  let until: number;
  try {
    const o = JSON.parse(text) as { token?: unknown; expires_at?: unknown };
    token = o.token;
    until = Date.parse(String(o.expires_at));
  } catch {
    throw new ProviderError('failed', 'bad_response');
  }
  if (typeof token !== 'string' || !token || token.length > 4096 || !Number.isFinite(until)) throw new ProviderError('failed', 'bad_response');
  await deps.store.run('UPDATE extension_installations SET minted_token = ?, minted_until = ? WHERE name = ? AND app_id = ?', [token, until, inst.name, inst.app_id]);
  return token;
}

/** A refused minted token (revoked with an uninstall, or expired early) is dropped, so the next call mints again. */
export async function dropMinted(deps: DomainDeps, inst: InstallationRow): Promise<void> {
  if (inst.app_id !== null && inst.app_id !== undefined) await deps.store.run('UPDATE extension_installations SET minted_token = NULL, minted_until = NULL WHERE name = ?', [inst.name]);
}
