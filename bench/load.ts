// Owns how every benchmark drives load: autocannon in a child process (bench/loadgen.mjs), answers checked per connection, CPU per request.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';

export interface LoadSpec {
  port: number;
  method: 'GET' | 'POST';
  /** Path of the request sent on connection `conn` (0-based). */
  path: (conn: number) => string;
  headers: (conn: number) => Record<string, string>;
  body?: (conn: number) => Buffer;
  connections: number;
  /** Measured window (whole seconds, at least 1); a warm-up load of `warmupMs` runs first when it is at least a second. */
  durationMs: number;
  warmupMs: number;
  /** Hard cap on requests sent in the measured run. */
  maxRequests?: number;
  /** A response counts as ok only if this holds; by default any 2xx. */
  check?: (status: number, body: string) => boolean;
}

export interface LoadResult {
  connections: number;
  /** 2xx answers in the measured run (0 when a checked answer failed). */
  ok: number;
  /** Non-2xx answers, socket errors and timeouts (and every answer when a checked answer failed). */
  failed: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Every request answered in the measured run (for CPU-per-request figures). */
  completed: number;
  /** First failure seen (status and a short body prefix), for the report; never carries a header value. */
  firstFailure?: string;
}

/** The q-quantile (0..1) of a sample by nearest rank; NaN for an empty sample. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface Exchange {
  status: number;
  body: string;
}

function once(spec: LoadSpec, conn: number): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const body = spec.body?.(conn);
    const headers: Record<string, string | number> = { ...spec.headers(conn) };
    if (body) headers['content-length'] = body.length;
    const req = request({ host: '127.0.0.1', port: spec.port, method: spec.method, path: spec.path(conn), headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/** Distinct connections whose request is checked before and after the load (all of them up to 16). */
function checkedConnections(n: number): number[] {
  return Array.from({ length: Math.min(n, 16) }, (_, i) => i);
}

/** The first failed check among the connections' requests, or undefined when every answer passes. */
async function verify(spec: LoadSpec): Promise<string | undefined> {
  const check = spec.check ?? ((s: number) => s >= 200 && s < 300);
  for (const c of checkedConnections(spec.connections)) {
    try {
      const r = await once(spec, c);
      if (!check(r.status, r.body)) return `HTTP ${r.status}: ${r.body.slice(0, 160)}`;
    } catch (e) {
      return `socket: ${(e as Error).message}`;
    }
  }
  return undefined;
}

interface GeneratorResult {
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  completed: number;
  durationS: number;
  p50Ms: number;
  p99Ms: number;
}

const GENERATOR = resolve(import.meta.dirname, 'loadgen.mjs');

/** One autocannon run in a fresh child process; secrets travel over IPC, never argv. */
function generate(spec: LoadSpec, durationS: number): Promise<GeneratorResult> {
  const requests = Array.from({ length: spec.connections }, (_, c) => {
    const body = spec.body?.(c);
    return { path: spec.path(c), headers: spec.headers(c), ...(body ? { body: body.toString('utf8') } : {}) };
  });
  return new Promise((res, rej) => {
    const child = fork(GENERATOR, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [] });
    let answered = false;
    child.once('message', (m: { result?: GeneratorResult; error?: string }) => {
      answered = true;
      if (m.result) res(m.result);
      else rej(new Error(`load generator: ${m.error}`));
    });
    child.once('exit', (code) => {
      if (!answered) rej(new Error(`load generator exited with ${code}`));
    });
    child.send({ port: spec.port, method: spec.method, requests, connections: spec.connections, durationS, maxRequests: spec.maxRequests });
  });
}

/**
 * Runs one load measurement with autocannon in its own process: every connection sends its next request as soon as the
 * previous answer is read. Each connection's request is checked (status and body) before and after the run; during the run
 * a non-2xx answer, socket error or timeout counts as failed. A warm-up of at least a second runs as a separate load first.
 * autocannon stops on whole seconds, so the window is durationMs rounded to whole seconds (at least 1 s).
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return (await measure(spec, [])).r;
}

async function measure(spec: LoadSpec, pids: readonly number[]): Promise<{ r: LoadResult; cpuMs: number }> {
  const before = await verify(spec);
  if (spec.warmupMs >= 1000) await generate(spec, Math.round(spec.warmupMs / 1000));
  const c0 = cpuMs(pids);
  const g = await generate(spec, Math.max(1, Math.round(spec.durationMs / 1000)));
  const cpu = cpuMs(pids) - c0;
  const afterCheck = before ?? (await verify(spec));
  const bad = g.non2xx + g.errors + g.timeouts;
  const ok = afterCheck === undefined ? g.ok2xx : 0;
  const failed = afterCheck === undefined ? bad : bad + g.ok2xx;
  const out: LoadResult = { connections: spec.connections, ok, failed, completed: g.completed, rps: ok / Math.max(0.001, g.durationS), p50Ms: g.p50Ms, p99Ms: g.p99Ms };
  const why = afterCheck ?? (bad > 0 ? `${g.non2xx} non-2xx, ${g.errors} socket errors, ${g.timeouts} timeouts` : undefined);
  if (why !== undefined) out.firstFailure = why;
  return { r: out, cpuMs: cpu };
}

/** User+system CPU time of processes in ms, from /proc/<pid>/stat (Linux; clock ticks of 10 ms). */
export function cpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
  }
  return ticks * 10;
}

/** Runs a load and also reports the CPU the given server processes spent per answered request (µs). */
export async function runLoadWithCpu(spec: LoadSpec, pids: readonly number[]): Promise<LoadResult & { cpuUsPerReq: number }> {
  const { r, cpuMs: cpu } = await measure(spec, pids);
  // CPU of the measured run only (not the checks or the warm-up) over the answers of that run.
  return { ...r, cpuUsPerReq: (cpu * 1000) / Math.max(1, r.completed) };
}
