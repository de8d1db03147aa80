// Owns end-to-end test plumbing: temp homes, the real `bin/agentteam` binary, a real daemon on loopback, raw HTTP.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { processAlive } from '../src/shared/proc.js';

export const BIN = resolve(import.meta.dirname, '..', 'bin', 'agentteam');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI binary to completion. */
export function cli(home: string, args: string[], opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<RunResult> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: { ...process.env, AGENTTEAM_HOME: home, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const t = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('close', (code) => {
      clearTimeout(t);
      res({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

export function cliJson(r: RunResult): any {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`not JSON (code ${r.code}): ${r.stdout}\nstderr: ${r.stderr}`);
  }
}

export class TestDaemon {
  readonly home: string;
  port = 0;
  pid = 0;

  constructor(home?: string, readonly env: Record<string, string> = {}) {
    this.home = home ?? mkdtempSync(join(tmpdir(), 'agentteam-test-'));
  }

  run(args: string[], opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<RunResult> {
    return cli(this.home, args, { ...opts, env: { ...this.env, ...opts.env } });
  }

  /** `agentteam init`: starts the daemon detached on the embedded server. */
  async start(): Promise<this> {
    const r = await this.run(['init']);
    if (r.code !== 0) throw new Error(`init failed (${r.code}): ${r.stderr}${r.stdout}`);
    const s = cliJson(r);
    this.port = s.port;
    this.pid = s.pid;
    return this;
  }

  ownerToken(): string {
    return readFileSync(join(this.home, 'owner.token'), 'utf8').trim();
  }

  async addAgent(name: string, runtime = 'command'): Promise<{ id: string; name: string }> {
    const r = await this.run(['agent', 'add', '--name', name, '--runtime', runtime]);
    if (r.code !== 0) throw new Error(`agent add failed: ${r.stderr}`);
    return cliJson(r);
  }

  /** Stops the daemon (SIGTERM) and waits for it to exit. */
  async stop(): Promise<void> {
    if (!this.pid) return;
    try {
      process.kill(this.pid, 'SIGTERM');
    } catch {
      return;
    }
    for (let i = 0; i < 150; i++) {
      if (!processAlive(this.pid)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    process.kill(this.pid, 'SIGKILL');
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.home, { recursive: true, force: true });
  }

  /** All text the daemon wrote under its home (logs, files), for secret greps. */
  allText(): string {
    const r = spawnSync('grep', ['-r', '-a', '-h', '', this.home], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    return r.stdout;
  }
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request to 127.0.0.1:port with full control of headers and body. */
export function http(port: number, method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {}): Promise<HttpResult> {
  return new Promise((res, rej) => {
    const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body);
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...opts.headers }, timeout: opts.timeoutMs ?? 30_000 }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(chunks).toString('utf8') }));
      r.on('error', rej);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', rej);
    req.end(body);
  });
}

/** Runs `steps` (see test/fixtures/exec-steps.mjs) through the real `agentteam exec` inside a runtime launched for `agent`. */
export async function runExecSteps(d: TestDaemon, agent: string, steps: unknown[]): Promise<Record<string, any>> {
  const file = resolve(d.home, `steps-${agent}-${Math.random().toString(36).slice(2)}.json`);
  // 0600: the home check refuses group/world-readable files when a test restarts the daemon on this home.
  writeFileSync(file, JSON.stringify(steps), { mode: 0o600 });
  const r = await d.run(['runtime', 'start', '--agent', agent, '--', process.execPath, resolve(import.meta.dirname, 'fixtures', 'exec-steps.mjs'), file], { timeoutMs: 180_000 });
  if (r.code !== 0) throw new Error(`runtime failed: ${r.stderr}`);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT'));
  if (!line) throw new Error(`no RESULT line: ${r.stdout}${r.stderr}`);
  return JSON.parse(line.slice(6));
}
