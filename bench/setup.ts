// Owns benchmark fixtures on top of the test harness: a real daemon in a temp home, agents, runtimes whose tokens we capture, seeding.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, TestDaemon, cliJson, http } from '../test/harness.js';

export interface RuntimeTokens {
  runId: string;
  /** MCP bearer (atm_…). A secret: kept in memory only, never printed or written to results. */
  mcpToken: string;
  /** Current Exec generation read once from the private token file (atx_…). A secret, same rules. */
  execToken: string;
  execTokenFile: string;
  execBaseUrl: string;
}

export class BenchDaemon {
  readonly d: TestDaemon;
  readonly scratch: string;
  serverId = '';
  serverUrl = '';
  private runtimes = 0;

  constructor() {
    this.d = new TestDaemon();
    this.scratch = mkdtempSync(join(tmpdir(), 'agentteam-bench-'));
  }

  /** A started daemon; on a failed start its temp dirs are removed before the error propagates. */
  static async launch(): Promise<BenchDaemon> {
    const d = new BenchDaemon();
    try {
      return await d.start();
    } catch (e) {
      await d.dispose();
      throw e;
    }
  }

  get port(): number {
    return this.d.port;
  }

  get pid(): number {
    return this.d.pid;
  }

  async start(): Promise<this> {
    await this.d.start();
    const s = cliJson(await this.d.run(['daemon', 'status']));
    this.serverId = s.server.serverId;
    this.serverUrl = s.server.url;
    this.d.pid = s.pid;
    return this;
  }

  /** Stops the daemon and runs it again in the foreground as our child with extra node flags (e.g. --cpu-prof), same home. */
  async restartWith(nodeArgs: string[]): Promise<ChildProcess> {
    await this.d.stop();
    const child = spawn(process.execPath, [...nodeArgs, BIN, '--home', this.d.home, 'daemon', 'start', '--foreground', '--port', '0'], { stdio: 'ignore', env: { ...process.env, AGENTTEAM_HOME: this.d.home } });
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const s = await this.d.run(['daemon', 'status']);
      if (s.code === 0 && cliJson(s).pid === child.pid) break;
    }
    await this.start(); // healthy: `init` just reports it
    return child;
  }

  /** Restarts the daemon on the same home (e.g. after rows were written straight into server.db). */
  async restart(): Promise<void> {
    await this.d.stop();
    await this.start();
  }

  /** One owner-route call over HTTP (what the owner CLI does, minus the process start). */
  async owner(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.d.ownerToken()}`, host: `127.0.0.1:${this.port}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await http(this.port, method, path, { headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), timeoutMs: 60_000 });
    const env = JSON.parse(r.body);
    if (!env.ok) throw new Error(`${method} ${path}: HTTP ${r.status} ${env.error?.code}`);
    return env.data;
  }

  async addAgent(name: string): Promise<string> {
    return (await this.d.addAgent(name)).id;
  }

  /** The agent's server credential from its 0600 profile (the baselines call the server as that agent). */
  agentCredential(agentId: string): string {
    return JSON.parse(readFileSync(join(this.d.home, 'profiles', `${agentId}.json`), 'utf8')).credential;
  }

  /** Launches a detached `sleep` runtime (nothing captured): the cheapest live authorization. It outlives any bench run (2 h); dispose stops it. */
  async launchSleep(agentId: string): Promise<string> {
    const run = await this.owner('POST', '/api/daemon/runtimes', { agent: agentId, command: ['sleep', '7200'], workdir: this.scratch, detach: true });
    return run.runId;
  }

  /** Launches a detached runtime that hands its MCP token, Exec token file and base URL to us through a private file, then sleeps. */
  async launchWithTokens(agentId: string): Promise<RuntimeTokens> {
    const out = join(this.scratch, `rt-${++this.runtimes}.txt`);
    const script = `umask 077; printf '%s\\n%s\\n%s\\n' "$AGENTTEAM_MCP_TOKEN" "$AGENTTEAM_EXEC_TOKEN_FILE" "$AGENTTEAM_EXEC_BASE_URL" > '${out}.tmp' && mv '${out}.tmp' '${out}'; exec sleep 7200`;
    const run = await this.owner('POST', '/api/daemon/runtimes', { agent: agentId, command: ['sh', '-c', script], workdir: this.scratch, detach: true });
    for (let i = 0; i < 400 && !existsSync(out); i++) await new Promise((r) => setTimeout(r, 25));
    const [mcpToken, execTokenFile, execBaseUrl] = readFileSync(out, 'utf8').trim().split('\n') as [string, string, string];
    rmSync(out, { force: true });
    return { runId: run.runId, mcpToken, execTokenFile, execBaseUrl, execToken: readFileSync(execTokenFile, 'utf8').trim() };
  }

  async stopRuntime(runId: string): Promise<void> {
    await this.owner('POST', `/api/daemon/runtimes/${encodeURIComponent(runId)}/stop`);
  }

  /** VmRSS of the daemon process in KiB (Linux /proc). */
  rssKiB(): number {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  }

  async dispose(): Promise<void> {
    await this.d.dispose();
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** Runs `fn` over items with at most `width` in flight. */
export async function pool<T, R>(items: readonly T[], width: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}
