// Owns the daemon's link to its AgentTeam Server: the server it remembers in the home (server.json), connecting with backoff, and reachability for status.
import { readFileSync } from 'node:fs';
import type { ServerInfo } from '../server-client/api.js';
import { ServerCallError, ServerClient } from '../server-client/client.js';
import { parseServerUrl } from '../server-client/server-url.js';
import type { Clock } from '../shared/clock.js';
import { readTextIfExists, writePrivateFile } from '../home/home.js';
import { serverClient } from '../domains/registry.js';

/** What a home remembers about a remote server: every server process URL (tried in turn) and the server id. */
export interface RememberedServer {
  urls: string[];
  serverId: string;
  /** A PEM CA file trusted for https:// (self-signed or private CA), when one was given. */
  caFile?: string;
}

const MAX_URLS = 8;

/** Splits `--server-url A,B` (or repeated values) into checked URLs. */
export function parseServerUrls(values: readonly string[]): string[] {
  const urls = values.flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  if (urls.length === 0 || urls.length > MAX_URLS) throw new Error(`give 1 to ${MAX_URLS} server URLs`);
  for (const u of urls) parseServerUrl(u); // throws a clear error, e.g. plain http to another host
  return urls;
}

export function readRememberedServer(path: string): RememberedServer | undefined {
  const raw = readTextIfExists(path);
  if (raw === undefined) return undefined;
  let v: Partial<RememberedServer>;
  try {
    v = JSON.parse(raw) as Partial<RememberedServer>;
  } catch {
    throw new Error(`${path} is not valid JSON; fix or remove it`);
  }
  if (!Array.isArray(v.urls) || typeof v.serverId !== 'string') throw new Error(`${path} must hold {urls, serverId}`);
  return { urls: parseServerUrls(v.urls as string[]), serverId: v.serverId, ...(typeof v.caFile === 'string' ? { caFile: v.caFile } : {}) };
}

export function rememberServer(path: string, s: RememberedServer): void {
  writePrivateFile(path, JSON.stringify(s, null, 2) + '\n');
}

export function clientFor(s: { urls: string[]; caFile?: string }, timeoutMs?: number): ServerClient {
  const [first, ...rest] = s.urls;
  return serverClient({ baseUrl: first!, fallbackUrls: rest, ...(s.caFile ? { ca: readFileSync(s.caFile) } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
}

/**
 * Asks the server who it is, retrying while it is unreachable: 0.5 s, 1 s, 2 s, … capped at 5 s, until `waitMs` has
 * passed; each retry is reported through `say` (the detached start shows it). A refusal (4xx) and a certificate the
 * client does not trust are not retried. Giving up rejects with the reason, so the daemon exits non-zero.
 * The clock's timers do not hold the process, so `hold()` keeps it alive while a retry is pending.
 */
export async function connectWithBackoff(client: ServerClient, o: { clock: Clock; waitMs: number; say: (line: string) => void; hold?: () => () => void }): Promise<ServerInfo> {
  const start = o.clock.now();
  // A start-up that waits for its server holds the event loop, or the process would end at the first backoff (exit 0).
  const release = (o.hold ?? holdEventLoop)();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await client.info();
      } catch (e) {
        const unreachable = e instanceof ServerCallError && e.code === 'upstream_unavailable' && !e.untrusted;
        if (!unreachable) throw e;
        const delay = Math.min(5000, 500 * 2 ** (attempt - 1));
        const waited = o.clock.now() - start;
        if (waited + delay > o.waitMs) throw new Error(`gave up after ${Math.round(waited / 1000)} s and ${attempt} attempts: ${(e as Error).message}; start the server processes, then run agentteam daemon start again`);
        o.say(`server unreachable (${(e as Error).message.replace(/^server unreachable \((.*)\)$/, '$1')}); retrying in ${(delay / 1000).toFixed(1)} s (attempt ${attempt})`);
        await new Promise<void>((r) => o.clock.setTimer(delay, r));
      }
    }
  } finally {
    release();
  }
}

/** A ref'd handle that keeps Node running until released (it never fires work). */
function holdEventLoop(): () => void {
  const h = setInterval(() => undefined, 1 << 30);
  return () => clearInterval(h);
}

/**
 * Why a daemon of version `ours` must not work against a server of version `server`, or undefined when it may: the
 * wire (routes, DTO fields the daemon projects for its models) is kept within one major.minor; a patch may differ.
 */
export function versionSkew(server: string, ours: string): string | undefined {
  const mm = (v: string) => /^(\d+)\.(\d+)\.\d+/.exec(v)?.slice(1, 3).join('.');
  if (mm(server) !== undefined && mm(server) === mm(ours)) return undefined;
  return `the server runs agentteam ${JSON.stringify(server).slice(0, 40)} and this daemon ${ours}; run the same major.minor version on both (upgrade the server processes first, then each daemon)`;
}

export interface Reachability {
  reachable: boolean;
  database: 'ok' | 'unavailable' | 'unknown';
  /** The server process URL that answered. */
  url?: string;
  error?: string;
}

/** One bounded health probe: the server process (any of its URLs) and, through it, the database. */
export async function probeServer(client: ServerClient, timeoutMs = 3000): Promise<Reachability> {
  try {
    await client.health({ signal: AbortSignal.timeout(timeoutMs) });
    return { reachable: true, database: 'ok', url: client.url };
  } catch (e) {
    const err = e as ServerCallError;
    // A 5xx answer means the process is up but its database is not.
    if (err instanceof ServerCallError && err.kind === 'server') return { reachable: true, database: 'unavailable', url: client.url, error: err.message };
    return { reachable: false, database: 'unknown', error: err instanceof Error ? err.message : String(err) };
  }
}
