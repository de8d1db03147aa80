// Owns what both baseline servers share: their config, the same auth checks as the daemon (loopback, keyed-hash bearer, path binding), child start-up.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { constantTimeEqual, keyedHash } from '../../src/shared/ids.js';
import { bearerToken, loopbackRequest } from '../../src/wire/http/guard.js';

export interface BaselineToken {
  /** A runtime's bearer secret (passed on stdin, never argv; never logged). */
  secret: string;
  scope: 'mcp' | 'exec';
  serverId: string;
  agentId: string;
}

export interface BaselineConfig {
  serverUrl: string;
  /** agentId → that agent's server credential. */
  credentials: Record<string, string>;
  tokens: BaselineToken[];
}

/** mcp: canonical or legacy MCP route; exec: the dynamic action route. */
export type Route = { kind: 'mcp'; serverId: string; agentId: string } | { kind: 'exec'; serverId: string; agentId: string; domain: string; action: string };

const MCP_RE = /^\/api\/internal\/mcp\/servers\/([^/?]+)\/agents\/([^/?]+)$|^\/mcp\/agentteam\/([^/?]+)\/([^/?]+)$/;
const EXEC_RE = /^\/api\/internal\/exec\/servers\/([^/?]+)\/agents\/([^/?]+)\/([a-z0-9-]+)\/([a-z0-9-]+)$/;

export function matchRoute(url: string | undefined): Route | null {
  const path = (url ?? '/').split('?')[0]!;
  const m = MCP_RE.exec(path);
  if (m) return { kind: 'mcp', serverId: m[1] ?? m[3]!, agentId: m[2] ?? m[4]! };
  const e = EXEC_RE.exec(path);
  if (e) return { kind: 'exec', serverId: e[1]!, agentId: e[2]!, domain: e[3]!, action: e[4]! };
  return null;
}

/** The daemon's auth order without its lifecycle: loopback Host/Origin → keyed-hash lookup + constant-time compare → scope + path binding. */
export class BaselineAuth {
  private readonly key = randomBytes(32);
  private readonly byHash = new Map<string, { hash: Buffer; t: BaselineToken }>();

  constructor(tokens: readonly BaselineToken[]) {
    for (const t of tokens) {
      const hash = keyedHash(this.key, t.secret);
      this.byHash.set(hash.toString('hex'), { hash, t: { ...t, secret: '' } });
    }
  }

  /** True when the request may use `route`; the caller answers one generic 403 otherwise. */
  allows(req: IncomingMessage, route: Route): boolean {
    if (!loopbackRequest(req)) return false;
    const secret = bearerToken(req);
    if (!secret) return false;
    const hash = keyedHash(this.key, secret);
    const c = this.byHash.get(hash.toString('hex'));
    if (!c || !constantTimeEqual(c.hash, hash)) return false;
    return c.t.scope === route.kind && c.t.serverId === route.serverId && c.t.agentId === route.agentId;
  }
}

export const DENIED = '{"ok":false,"error":{"code":"denied","message":"forbidden"}}';

export function readAll(req: IncomingMessage, max = 1024 * 1024): Promise<Buffer> {
  return new Promise((res, rej) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) return req.destroy(new Error('too large'));
      chunks.push(c);
    });
    req.on('end', () => res(Buffer.concat(chunks)));
    req.on('error', rej);
  });
}

/** Entry helper for a baseline process: config JSON on stdin, "LISTENING <port>" on stdout. */
export async function serveFromStdin(start: (cfg: BaselineConfig) => Promise<Server>): Promise<void> {
  const cfg = JSON.parse((await readAll(process.stdin as unknown as IncomingMessage, 64 * 1024 * 1024)).toString('utf8')) as BaselineConfig;
  const server = await start(cfg);
  process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port}\n`);
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

export interface BaselineProcess {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts bench/baselines/<name>.ts in its own Node process (like the daemon, it gets its own event loop). */
export function startBaseline(name: 'bare' | 'sdk' | 'trivial', cfg: BaselineConfig): Promise<BaselineProcess> {
  const file = resolve(import.meta.dirname, `${name}.ts`);
  const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(JSON.stringify(cfg));
  return new Promise((res, rej) => {
    let out = '';
    const fail = (why: string) => rej(new Error(`baseline ${name} did not start: ${why}`));
    child.once('exit', (code) => fail(`exit ${code}`));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /LISTENING (\d+)/.exec(out);
      if (!m) return;
      child.removeAllListeners('exit');
      const stop = () =>
        new Promise<void>((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        });
      res({ port: Number(m[1]), child, stop });
    });
  });
}
