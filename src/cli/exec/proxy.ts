// Owns choosing an HTTP proxy for the Exec POST: only a loopback one, as a sandbox's managed proxy (Codex) provides.
//
// A runtime's sandbox may forbid direct sockets and route traffic through its own proxy on loopback (Codex's managed
// network proxy sets HTTP_PROXY/http_proxy for sandboxed commands and runs them in a network namespace where only that
// proxy is reachable). Node's http client ignores those variables, so the Exec CLI honours them itself, narrowly.

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

function ipv4(s: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

/** NO_PROXY as curl reads it: `*`, host names and domain suffixes, `host:port`, IPv4 CIDRs; comma or space separated. */
function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || '80';
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(entry);
    if (cidr) {
      const net = ipv4(cidr[1]!);
      const ip = ipv4(host);
      const bits = Number(cidr[2]);
      if (net !== null && ip !== null && bits <= 32) {
        const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
        if ((net & mask) === (ip & mask)) return true;
      }
      continue;
    }
    const [name, entryPort] = entry.replace(/^\[|\]$/g, '').split(/:(?=\d+$)/);
    if (entryPort !== undefined && entryPort !== port) continue;
    const bare = name!.replace(/^\*?\./, '');
    if (host === bare || host.endsWith(`.${bare}`)) return true;
  }
  return false;
}

/**
 * The proxy to send `target` through, or null for a direct connection: `http_proxy`/`HTTP_PROXY` when it is an
 * http:// proxy on loopback and NO_PROXY does not exempt the target.
 */
export function loopbackProxyFor(target: URL, env: Record<string, string | undefined>): URL | null {
  if (target.protocol !== 'http:') return null;
  const raw = env.http_proxy || env.HTTP_PROXY;
  if (!raw) return null;
  let proxy: URL;
  try {
    proxy = new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    return null;
  }
  // Security invariant: the Exec bearer only ever leaves this process for loopback; a remote proxy is never used.
  if (proxy.protocol !== 'http:' || !isLoopbackHost(proxy.hostname) || proxy.username || proxy.password) return null;
  if (bypassed(target, env.no_proxy ?? env.NO_PROXY ?? '')) return null;
  return proxy;
}
