// Owns benchmark 5: daemon memory under large attachments: 32 concurrent message_send calls with 4 × 10 MiB files on one runtime, then 32 concurrent reads.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { http } from '../test/harness.js';
import { fmt, goal, table, type BenchOptions, type BenchReport } from './report.js';
import { BenchDaemon } from './setup.js';

const CALLS = 32;
const FILES = 4;
const MIB = 1024 * 1024;

/** VmRSS and VmHWM (the kernel's peak resident set since the process started) in MiB. */
function mem(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)\\s+kB`).exec(s)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

interface Burst {
  ok: number;
  admission: number;
  other: string[];
  peakRssMiB: number;
  seconds: number;
}

/** Fires `calls` tools/call requests at once, sampling the daemon's RSS every 10 ms until all have answered. */
async function burst(d: BenchDaemon, token: string, path: string, calls: number, args: (i: number) => { name: string; arguments: unknown }): Promise<Burst> {
  let peak = mem(d.pid).rss;
  const sampler = setInterval(() => (peak = Math.max(peak, mem(d.pid).rss)), 10);
  const t0 = performance.now();
  const out: Burst = { ok: 0, admission: 0, other: [], peakRssMiB: 0, seconds: 0 };
  try {
    await Promise.all(
      Array.from({ length: calls }, async (_, i) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: args(i) });
        const r = await http(d.port, 'POST', path, { headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: `127.0.0.1:${d.port}` }, body, timeoutMs: 120_000 });
        const code = r.status === 200 ? JSON.parse(r.body).result?.structuredContent?.code : `http_${r.status}`;
        if (code === undefined) out.ok++;
        else if (code === 'admission_rejected') out.admission++;
        else out.other.push(String(code));
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  out.peakRssMiB = Math.max(peak, mem(d.pid).rss);
  out.seconds = (performance.now() - t0) / 1000;
  return out;
}

export async function benchAttachments(o: BenchOptions): Promise<BenchReport> {
  const d = await BenchDaemon.launch();
  try {
    const agentId = await d.addAgent('attacher');
    const rt = await d.launchWithTokens(agentId);
    const names = Array.from({ length: FILES }, (_, i) => `big-${i}.bin`);
    for (const n of names) writeFileSync(join(d.scratch, n), randomBytes(10 * MIB));
    const path = `/api/internal/mcp/servers/${d.serverId}/agents/${agentId}`;
    const idle = mem(d.pid).rss;
    const rounds = o.quick ? 1 : 2;
    const sends: Burst[] = [];
    for (let r = 0; r < rounds; r++) sends.push(await burst(d, rt.mcpToken, path, CALLS, (i) => ({ name: 'message_send', arguments: { target: 'channel:general', content: `bulk ${r}/${i}`, attachments: names } })));
    const listed = await d.owner('GET', '/api/daemon/messages?target=channel:general&limit=1');
    const attachmentId: string = (listed.messages ?? listed)[0]?.attachments?.[0]?.id;
    const reads: Burst[] = [];
    for (let r = 0; r < rounds; r++) reads.push(await burst(d, rt.mcpToken, path, CALLS, () => ({ name: 'message_attachment_read', arguments: { attachmentId } })));
    const { hwm } = mem(d.pid);
    await d.stopRuntime(rt.runId);
    const rows = [...sends.map((b, i) => ['message_send 4×10 MiB', String(i + 1), b]), ...reads.map((b, i) => ['message_attachment_read 10 MiB', String(i + 1), b])].map(([what, round, b]) => {
      const x = b as Burst;
      return [what as string, round as string, String(CALLS), String(x.ok), String(x.admission), String(x.other.length), fmt(x.peakRssMiB, 0), fmt(x.peakRssMiB / idle), fmt(x.seconds)];
    });
    const all = [...sends, ...reads];
    const peak = Math.max(hwm, ...all.map((b) => b.peakRssMiB));
    const untyped = all.reduce((n, b) => n + b.other.length, 0);
    return {
      name: 'attachments',
      table: `${table(['load', 'round', 'calls', 'ok', 'admission_rejected', 'other', 'peak RSS MiB', 'x idle', 's'], rows)}\nidle daemon RSS ${fmt(idle, 0)} MiB; VmHWM (peak since start) ${fmt(hwm, 0)} MiB; one runtime, all calls at once.${untyped ? `\nother failures: ${all.flatMap((b) => b.other).join(', ')}` : ''}`,
      goals: [goal('peak daemon RSS MiB (VmHWM) under 32 × 4 × 10 MiB sends and 32 reads', peak, '<=', 512), goal('calls neither ok nor admission_rejected', untyped, '<=', 0), goal('message_send calls that succeeded', sends.reduce((n, b) => n + b.ok, 0), '>=', 1)],
      json: { idleRssMiB: idle, vmHwmMiB: hwm, sends, reads },
    };
  } finally {
    await d.dispose();
  }
}
