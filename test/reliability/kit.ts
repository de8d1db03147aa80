// Owns reliability-suite plumbing on top of test/harness.ts: runtimes launched via the owner API, keep-alive clients, raw sockets, RSS, counts.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestDaemon } from '../harness.js';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Reply {
  status: number;
  body: string;
  bytes: number;
}

/** A keep-alive HTTP client to 127.0.0.1:port; every request carries a per-request timeout. */
export class Client {
  readonly agent: Agent;
  constructor(
    readonly port: number,
    maxSockets = 64,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  send(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer, timeoutMs = 30_000): Promise<Reply> {
    return new Promise((res, rej) => {
      const buf = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
      const req = request(
        { host: '127.0.0.1', port: this.port, method, path, agent: this.agent, headers: { ...(buf ? { 'content-length': String(buf.length) } : {}), ...headers }, timeout: timeoutMs },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => {
            const b = Buffer.concat(chunks);
            res({ status: r.statusCode ?? 0, body: b.toString('utf8'), bytes: b.length });
          });
          r.on('error', rej);
        },
      );
      req.on('timeout', () => req.destroy(new Error('client timeout')));
      req.on('error', rej);
      req.end(buf);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface Runtime {
  runId: string;
  /** pid of the runtime process (it `exec`s sleep, so this is the process the launcher watches). */
  pid: number;
  agentId: string;
  serverId: string;
  workdir: string;
  mcpToken: string;
  tokenFile: string;
  /** Path part of AGENTTEAM_EXEC_BASE_URL. */
  execBase: string;
  /** Path part of AGENTTEAM_MCP_URL. */
  mcpPath: string;
}

export function ownerHeaders(d: TestDaemon): Record<string, string> {
  return { authorization: `Bearer ${d.ownerToken()}`, 'content-type': 'application/json' };
}

/** Launches a detached runtime for `agent` that records its injected variables, then sleeps until killed. */
export async function launchRuntime(d: TestDaemon, client: Client, agent: string): Promise<Runtime> {
  const workdir = mkdtempSync(join(tmpdir(), 'agentteam-rel-wd-'));
  const script = `printf 'MCP<<%s>>\\nFILE<<%s>>\\nBASE<<%s>>\\nMCPURL<<%s>>\\n' "$AGENTTEAM_MCP_TOKEN" "$AGENTTEAM_EXEC_TOKEN_FILE" "$AGENTTEAM_EXEC_BASE_URL" "$AGENTTEAM_MCP_URL" > out.tmp && mv out.tmp out.txt; exec sleep 600`;
  const r = await client.send('POST', '/api/daemon/runtimes', ownerHeaders(d), JSON.stringify({ agent, workdir, command: ['sh', '-c', script], detach: true }));
  if (r.status !== 201) throw new Error(`runtime start failed: ${r.status} ${r.body}`);
  const run = JSON.parse(r.body).data as { runId: string; pid: number; agentId: string };
  const out = join(workdir, 'out.txt');
  for (let i = 0; i < 200 && !existsSync(out); i++) await sleep(25);
  const text = readFileSync(out, 'utf8');
  const field = (n: string) => {
    const m = new RegExp(`${n}<<([^>]*)>>`).exec(text);
    if (!m || !m[1]) throw new Error(`${n} missing from runtime output`);
    return m[1];
  };
  const execBase = new URL(field('BASE')).pathname;
  const serverId = /\/servers\/([^/]+)\//.exec(execBase)![1]!;
  return { runId: run.runId, pid: run.pid, agentId: run.agentId, serverId, workdir, mcpToken: field('MCP'), tokenFile: field('FILE'), execBase, mcpPath: new URL(field('MCPURL')).pathname };
}

/** The current Exec generation, read from the private file exactly as the CLI does (once per request). */
/** Test teardown: SIGKILLs every runtime that may still run (the daemon revokes each on exit). */
export function killRuntimes(runtimes: Iterable<Runtime | undefined>): void {
  for (const rt of runtimes) {
    try {
      if (rt) process.kill(rt.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

export function readExecToken(rt: Runtime): string {
  return readFileSync(rt.tokenFile, 'utf8').trim();
}

export function execHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}

export function mcpHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
}

export const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

/** Resident set size of a process in bytes (Linux /proc). */
export function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error('no VmRSS');
  return Number(m[1]) * 1024;
}

export const MiB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** Every task visible to the runtime's agent, walked page by page through `task list` (bounded). */
export async function allTasks(client: Client, rt: Runtime): Promise<Array<{ id: string; title: string }>> {
  const out: Array<{ id: string; title: string }> = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const r = await client.send('POST', `${rt.execBase}/task/list`, execHeaders(readExecToken(rt)), JSON.stringify({ limit: 100, ...(cursor ? { cursor } : {}) }));
    if (r.status !== 200) throw new Error(`task list failed: ${r.status} ${r.body}`);
    const data = JSON.parse(r.body).data;
    out.push(...data.tasks);
    if (!data.hasMore) return out;
    cursor = data.nextCursor;
  }
  throw new Error('task list did not end within 1000 pages');
}

/** Every message of a target, walked through the owner API (bounded). */
export async function allMessages(d: TestDaemon, client: Client, target: string): Promise<Array<{ id: string; content: string }>> {
  const out: Array<{ id: string; content: string }> = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const q = new URLSearchParams({ target, limit: '100', ...(cursor ? { cursor } : {}) });
    const r = await client.send('GET', `/api/daemon/messages?${q}`, ownerHeaders(d));
    if (r.status !== 200) throw new Error(`message list failed: ${r.status} ${r.body}`);
    const data = JSON.parse(r.body).data;
    out.push(...data.messages);
    if (!data.hasMore) return out;
    cursor = data.nextCursor;
  }
  throw new Error('message list did not end within 1000 pages');
}

export async function daemonStatus(d: TestDaemon, client: Client): Promise<any> {
  const r = await client.send('GET', '/api/daemon/status', ownerHeaders(d));
  if (r.status !== 200) throw new Error(`status failed: ${r.status}`);
  return JSON.parse(r.body).data;
}

export interface Held {
  socket: Socket;
  /** Resolves with the raw response head+body text when the server answers or closes. */
  answer: Promise<{ status: number; text: string; at: number }>;
}

/** Opens a raw connection and writes a request head only (declared Content-Length, no body yet). */
export function holdRequest(port: number, path: string, headers: Record<string, string>, contentLength: number): Held {
  const socket = connect({ host: '127.0.0.1', port });
  socket.setNoDelay(true);
  const head = [`POST ${path} HTTP/1.1`, `host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `content-length: ${contentLength}`, '', ''].join('\r\n');
  socket.write(head);
  const answer = new Promise<{ status: number; text: string; at: number }>((resolve) => {
    let text = '';
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text, at: performance.now() });
    };
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      text += c;
      // A complete response: head plus the declared body length.
      const end = text.indexOf('\r\n\r\n');
      const cl = /content-length: *(\d+)/i.exec(text);
      if (end >= 0 && cl && text.length - end - 4 >= Number(cl[1])) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
  });
  return { socket, answer };
}
