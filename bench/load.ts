// Owns the load generator every benchmark shares: N keep-alive connections on node:http, bounded by time and request count, loopback only.
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface LoadSpec {
  port: number;
  method: 'GET' | 'POST';
  /** Path of the request sent on connection `conn` (0-based). */
  path: (conn: number) => string;
  headers: (conn: number) => Record<string, string>;
  body?: (conn: number) => Buffer;
  connections: number;
  /** Measured window, after `warmupMs`: requests that complete inside it are counted (whenever they started). */
  durationMs: number;
  warmupMs: number;
  /** Hard cap on requests sent (whole run, warm-up included). */
  maxRequests?: number;
  /** A response counts as ok only if this holds; by default any 2xx. */
  check?: (status: number, body: string) => boolean;
}

export interface LoadResult {
  connections: number;
  /** Requests completed ok inside the measured window. */
  ok: number;
  /** Failed requests (bad status, failed check or socket error) inside the window. */
  failed: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Every request answered during the run, warm-up included (for CPU-per-request figures). */
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

function once(agent: Agent, spec: LoadSpec, conn: number): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const body = spec.body?.(conn);
    const headers: Record<string, string | number> = { ...spec.headers(conn) };
    if (body) headers['content-length'] = body.length;
    const req = request({ host: '127.0.0.1', port: spec.port, method: spec.method, path: spec.path(conn), headers, agent }, (res) => {
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

/** Runs one load measurement: every connection sends its next request as soon as the previous answer is read. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections, maxFreeSockets: spec.connections });
  const check = spec.check ?? ((s: number) => s >= 200 && s < 300);
  const t0 = performance.now();
  const windowStart = t0 + spec.warmupMs;
  const end = windowStart + spec.durationMs;
  const cap = spec.maxRequests ?? Number.POSITIVE_INFINITY;
  let sent = 0;
  let completed = 0;
  let ok = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const lat: number[] = [];
  let lastDone = windowStart;
  const worker = async (conn: number): Promise<void> => {
    while (performance.now() < end && sent < cap) {
      sent++;
      const start = performance.now();
      let good = false;
      let why = '';
      try {
        const r = await once(agent, spec, conn);
        good = check(r.status, r.body);
        if (!good) why = `HTTP ${r.status}: ${r.body.slice(0, 160)}`;
      } catch (e) {
        why = `socket: ${(e as Error).message}`;
      }
      const done = performance.now();
      completed++;
      if (done < windowStart || done > end) continue;
      lastDone = Math.max(lastDone, done);
      if (good) {
        ok++;
        lat.push(done - start);
      } else {
        failed++;
        firstFailure ??= why;
        if (why.startsWith('socket')) await new Promise((r) => setTimeout(r, 5));
      }
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, (_, i) => worker(i)));
  agent.destroy();
  lat.sort((a, b) => a - b);
  // Throughput = completions inside the window / its length (a request cap may end the run early: then over the time measured).
  const windowMs = sent >= cap ? Math.max(1, Math.min(end, lastDone) - windowStart) : spec.durationMs;
  const out: LoadResult = { connections: spec.connections, ok, failed, completed, rps: (ok / windowMs) * 1000, p50Ms: quantile(lat, 0.5), p99Ms: quantile(lat, 0.99) };
  if (firstFailure !== undefined) out.firstFailure = firstFailure;
  return out;
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
  const c0 = cpuMs(pids);
  const r = await runLoad(spec);
  return { ...r, cpuUsPerReq: ((cpuMs(pids) - c0) * 1000) / Math.max(1, r.completed) };
}
