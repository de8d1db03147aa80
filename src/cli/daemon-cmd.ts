// Owns `agentteam daemon start|stop|status` and `agentteam init`: detached start that returns once healthy.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ensureHome } from '../home/home.js';
import { processAlive } from '../shared/proc.js';
import { CliError } from './cli-error.js';
import { ownerRequest, readDaemonInfo } from './daemon-client.js';

/** What the daemon wrote to its output file since `from` (this start's lines only). */
function newOutput(path: string, from: number): string {
  return readFileSync(path).subarray(from).toString('utf8');
}

export interface StartOptions {
  port?: string;
  foreground?: boolean;
  serverUrl?: string[];
  serverId?: string;
  serverCa?: string;
  maxTurns?: string;
  turnTimeout?: string;
  loopBound?: string;
  /** Seconds start-up retries an unreachable remote server before exiting non-zero (default 60). */
  serverWait?: string;
  maxQueued?: string;
}

function intFlag(v: string | undefined, name: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new CliError(`${name} must be an integer ${min}..${max}`, 2);
  return n;
}

/** Start-up waits this long (default; --server-wait) for an unreachable remote server before giving up (the detached parent waits a bit more). */
const SERVER_WAIT_S = 60;

/** bin/ beside dist/: `entry` is the CLI's entry file (dist/cli.mjs), the file a detached daemon is started from. */
const binDir = (entry: string) => resolve(dirname(entry), '..', 'bin');

export async function daemonStatus(home: string): Promise<Record<string, unknown>> {
  const info = readDaemonInfo(home);
  if (!info) return { healthy: false, reason: 'not running' };
  try {
    const r = await ownerRequest(home, 'GET', '/api/daemon/status', undefined, 5000);
    if (r.body.ok) return r.body.data as Record<string, unknown>;
    return { healthy: false, pid: info.pid, port: info.port, reason: r.body.error?.message ?? 'unhealthy' };
  } catch {
    return { healthy: false, pid: info.pid, port: info.port, reason: 'not reachable' };
  }
}

function tokenTtlFromEnv(): number | undefined {
  const v = process.env.AGENTTEAM_TOKEN_TTL_MS;
  return v && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** Fraction of the TTL at which a generation is renewed (default 0.8); a test knob for fast rotation with a wide margin. */
function renewAtFromEnv(): number | undefined {
  const v = Number(process.env.AGENTTEAM_TOKEN_RENEW_AT);
  return v >= 0.1 && v <= 0.9 ? v : undefined;
}

/** Open connections per listener (a test knob; default 2048). */
function maxConnectionsFromEnv(): number | undefined {
  const v = process.env.AGENTTEAM_MAX_CONNECTIONS;
  return v && /^\d{1,6}$/.test(v) && Number(v) > 0 ? Number(v) : undefined;
}

export async function daemonStart(home: string, o: StartOptions, entry: string): Promise<number> {
  const port = o.port === undefined ? 0 : Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be 0..65535', 2);
  if ((o.serverUrl === undefined) !== (o.serverId === undefined)) throw new CliError('--server-url and --server-id go together', 2);
  let serverUrls: string[] | undefined;
  try {
    // The daemon and the server client load only when this command starts one (a fast `status`, `stop`, owner commands).
    serverUrls = o.serverUrl ? (await import('../daemon/server-link.js')).parseServerUrls(o.serverUrl) : undefined;
  } catch (e) {
    throw new CliError(`--server-url: ${(e as Error).message}`, 2);
  }
  if (o.serverCa && !serverUrls) throw new CliError('--server-ca goes with --server-url', 2);
  const maxTurns = intFlag(o.maxTurns, '--max-turns', 1, 512);
  const turnTimeout = intFlag(o.turnTimeout, '--turn-timeout', 1, 86_400);
  const loopBound = intFlag(o.loopBound, '--loop-bound', 1, 40);
  const serverWait = intFlag(o.serverWait, '--server-wait', 1, 3600);
  const serverWaitMs = (serverWait ?? SERVER_WAIT_S) * 1000;
  const maxQueued = intFlag(o.maxQueued, '--max-queued', 1, 100_000);
  if (o.foreground) {
    const { AlreadyRunning, runDaemon } = await import('../daemon/main.js');
    try {
      const d = await runDaemon({
        home,
        port,
        binDir: binDir(entry),
        ...(serverUrls ? { serverUrls } : {}),
        ...(o.serverCa ? { serverCaFile: resolve(o.serverCa) } : {}),
        serverWaitMs,
        serverId: o.serverId,
        serverAdminToken: process.env.AGENTTEAM_SERVER_ADMIN_TOKEN,
        tokenTtlMs: tokenTtlFromEnv(),
        tokenRenewAt: renewAtFromEnv(),
        maxConnections: maxConnectionsFromEnv(),
        turns: { maxConcurrent: maxTurns, loopBound, maxQueued, turnTimeoutMs: turnTimeout === undefined ? undefined : turnTimeout * 1000 },
      });
      const onSignal = () => void d.stop();
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      process.stderr.write(`agentteam daemon listening on 127.0.0.1:${d.port}\n`);
      await d.done;
      return 0;
    } catch (e) {
      if (e instanceof AlreadyRunning) throw new CliError(`${e.message}; see: agentteam daemon status`, 1);
      throw e;
    }
  }
  const cur = await daemonStatus(home);
  if (cur.healthy) throw new CliError(`a daemon is already running for this home (pid ${cur.pid}, port ${cur.port})`, 1);
  const paths = ensureHome(home);
  const outPath = join(paths.logs, 'daemon.out');
  const out = openSync(outPath, 'a', 0o600);
  const args = [entry, '--home', home, 'daemon', 'start', '--foreground', '--port', String(port)];
  if (serverUrls) args.push('--server-url', serverUrls.join(','), '--server-id', o.serverId!);
  if (o.serverCa) args.push('--server-ca', resolve(o.serverCa));
  if (maxTurns !== undefined) args.push('--max-turns', String(maxTurns));
  if (turnTimeout !== undefined) args.push('--turn-timeout', String(turnTimeout));
  if (loopBound !== undefined) args.push('--loop-bound', String(loopBound));
  if (serverWait !== undefined) args.push('--server-wait', String(serverWait));
  if (maxQueued !== undefined) args.push('--max-queued', String(maxQueued));
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', out, out], env: process.env });
  closeSync(out);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  child.unref();
  const outStart = statSync(outPath).size;
  let shown = 0;
  let deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    // Retry notes from the daemon (server unreachable, retrying in …) are shown here and extend the wait.
    const notes = newOutput(outPath, outStart).split('\n').filter((l) => l.includes('server unreachable'));
    for (const l of notes.slice(shown)) process.stderr.write(`${l}\n`);
    if (notes.length > shown) deadline = Math.max(deadline, Date.now() + serverWaitMs + 5000);
    shown = notes.length;
    if (exited !== null) {
      const tail = newOutput(outPath, outStart).trim().split('\n').slice(-3).join('\n');
      throw new CliError(`the daemon exited during start-up (code ${exited}): ${tail}`, 1);
    }
    const s = await daemonStatus(home);
    if (s.pid === child.pid && typeof s.bootId === 'string') {
      process.stdout.write(JSON.stringify(s, null, 2) + '\n');
      if (!s.healthy) process.stderr.write('agentteam: the daemon started but its server or database is not reachable now\n');
      return s.healthy ? 0 : 1;
    }
  }
  throw new CliError('the daemon did not start within its wait; see logs/daemon.out in the home', 1);
}

export async function daemonStop(home: string): Promise<number> {
  const info = readDaemonInfo(home);
  if (!info) {
    process.stdout.write(JSON.stringify({ stopped: false, reason: 'not running' }) + '\n');
    return 0;
  }
  await ownerRequest(home, 'POST', '/api/daemon/stop');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (!processAlive(info.pid)) {
      process.stdout.write(JSON.stringify({ stopped: true, pid: info.pid }) + '\n');
      return 0;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new CliError(`the daemon (pid ${info.pid}) did not stop within 15 s`, 1);
}
