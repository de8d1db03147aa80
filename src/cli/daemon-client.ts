// Owns the owner CLI's connection to its daemon: finds it via home/daemon.json, authenticates with home/owner.token.
import { request } from 'node:http';
import { homePaths, readTextIfExists } from '../home/home.js';
import { CliError } from './cli-error.js';

export interface DaemonInfo {
  pid: number;
  port: number;
  bootId: string;
}


export function readDaemonInfo(home: string): DaemonInfo | undefined {
  const raw = readTextIfExists(homePaths(home).daemonJson);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as DaemonInfo;
  } catch {
    return undefined;
  }
}

export interface Envelope {
  ok: boolean;
  data?: any;
  error?: { code: string; message: string; hint?: string };
}

/** What a command module gets from the entry: the home (`--home` anywhere on the line, else $AGENTTEAM_HOME) and the entry file. */
export interface CliContext {
  home(): string;
  homeFlag(): string | undefined;
  /** The file a detached daemon is started from (dist/cli.mjs): command modules sit in chunks beside it. */
  entry: string;
}

/** An owner answer's data, or a CliError (exit 1) with the daemon's code, message and hint. */
export function unwrap(r: { status: number; body: Envelope }): any {
  if (r.body.ok) return r.body.data;
  const e = r.body.error;
  throw new CliError(`${e?.code ?? 'error'}: ${e?.message ?? 'request failed'}${e?.hint ? ` (${e.hint})` : ''}`, 1);
}

/** `dm:NAME[,NAME…]` as the exact DM target (the daemon opens the DM if needed); other targets unchanged, without a request. */
export async function resolveTarget(home: string, target: string): Promise<string> {
  if (!target.startsWith('dm:')) return target;
  return (unwrap(await ownerRequest(home, 'POST', '/api/daemon/targets', { target })) as { target: string }).target;
}

/** One owner request; resolves the parsed envelope, or throws CliError when the daemon is not reachable. */
export function ownerRequest(home: string, method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<{ status: number; body: Envelope }> {
  const info = readDaemonInfo(home);
  const token = readTextIfExists(homePaths(home).ownerToken)?.trim();
  if (!info || !token) return Promise.reject(new CliError('the daemon is not running; start it with: agentteam daemon start', 5));
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: info.port, method, path, timeout: timeoutMs, headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Envelope });
          } catch {
            reject(new CliError(`the daemon answered ${res.statusCode} with a body that is not JSON`));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => reject(new CliError('the daemon is not reachable; start it with: agentteam daemon start', 5)));
    req.end(payload);
  });
}

/** Streams NDJSON events from an owner route (foreground runtime). */
export function ownerStream(home: string, path: string, body: unknown, onLine: (v: any) => void): Promise<{ status: number; error?: Envelope }> {
  const info = readDaemonInfo(home);
  const token = readTextIfExists(homePaths(home).ownerToken)?.trim();
  if (!info || !token) return Promise.reject(new CliError('the daemon is not running; start it with: agentteam daemon start', 5));
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: info.port, method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      if ((res.headers['content-type'] ?? '').startsWith('application/json')) {
        res.on('data', (d: string) => (buf += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, error: JSON.parse(buf) as Envelope }));
        return;
      }
      res.on('data', (d: string) => {
        buf += d;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line) onLine(JSON.parse(line));
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', () => reject(new CliError('the daemon is not reachable; start it with: agentteam daemon start', 5)));
    req.end(payload);
  });
}
