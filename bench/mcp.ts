// Owns benchmark 1: MCP ping, tools/list and tools/call message_history_read: ours vs the bare node:http baseline vs the official SDK server.
import { startBaseline, type BaselineConfig } from './baselines/common.js';
import { runLoadWithCpu, type LoadResult } from './load.js';
import { alternate, fmt, goalNear, med, nearCeiling, ratio, table, type BenchOptions, type BenchReport, type Goal } from './report.js';
import { BenchDaemon, pool, type RuntimeTokens } from './setup.js';

/** Connections per measurement; at 256 the load is spread over RUNTIMES authorizations so none passes its 32-request admission. */
export const MCP_CONNECTIONS = [1, 32, 256] as const;
const RUNTIMES = 16;
const SEED_MESSAGES = 50;
/** ceiling = the trivial server: what the generator itself can drive with these connections, measured in the same rounds. */
const CONTENDERS = ['ours', 'bare', 'sdk', 'ceiling'] as const;

const METHODS = {
  ping: { jsonrpc: '2.0', id: 1, method: 'ping' },
  'tools/list': { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  'tools/call': { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'message_history_read', arguments: { target: 'channel:general', limit: 20 } } },
} as const;
type Method = keyof typeof METHODS;

/** What a correct answer looks like (a 200 that is not a JSON-RPC or tool error). */
function checker(method: Method): (status: number, body: string) => boolean {
  return (status, body) => {
    if (status !== 200 || !body.includes('"result"')) return false;
    if (method === 'tools/list') return body.includes('"message_history_read"');
    if (method === 'tools/call') return body.includes('"structuredContent"') && !body.includes('"isError":true');
    return true;
  };
}

export interface McpFixture {
  daemon: BenchDaemon;
  agentId: string;
  runtimes: RuntimeTokens[];
  baselineConfig: BaselineConfig;
}

/** One daemon, one agent in #general with seeded messages, RUNTIMES live runtimes whose tokens we hold; shared with the Exec bench. */
export async function mcpFixture(): Promise<McpFixture> {
  const daemon = await BenchDaemon.launch();
  try {
    // The daemon runs as our child, in our session: the baselines and the load generator are our children too, so on a
    // kernel with autogroup scheduling every contender draws CPU from the same group. A detached daemon gets a group of
    // its own, and bare's tools/call (bare's process + the daemon's server thread) would then draw from two groups to ours' one.
    await daemon.restartWith([]);
    return await populate(daemon);
  } catch (e) {
    await daemon.dispose();
    throw e;
  }
}

async function populate(daemon: BenchDaemon): Promise<McpFixture> {
  const agentId = await daemon.addAgent('benchbot');
  await pool(Array.from({ length: SEED_MESSAGES }, (_, i) => i), 4, (i) => daemon.owner('POST', '/api/daemon/messages', { target: 'channel:general', content: `seed message ${i} ${'lorem ipsum '.repeat(8)}` }));
  const runtimes = await pool(Array.from({ length: RUNTIMES }, (_, i) => i), 4, () => daemon.launchWithTokens(agentId));
  const baselineConfig: BaselineConfig = {
    serverUrl: daemon.serverUrl,
    credentials: { [agentId]: daemon.agentCredential(agentId) },
    tokens: runtimes.flatMap((r) => [
      { secret: r.mcpToken, scope: 'mcp' as const, serverId: daemon.serverId, agentId },
      { secret: r.execToken, scope: 'exec' as const, serverId: daemon.serverId, agentId },
    ]),
  };
  return { daemon, agentId, runtimes, baselineConfig };
}

export async function benchMcp(fx: McpFixture, o: BenchOptions): Promise<BenchReport> {
  const { daemon, agentId, runtimes } = fx;
  const path = `/api/internal/mcp/servers/${daemon.serverId}/agents/${agentId}`;
  const bare = await startBaseline('bare', fx.baselineConfig);
  const sdk = await startBaseline('sdk', fx.baselineConfig);
  const trivial = await startBaseline('trivial', fx.baselineConfig);
  const ports = { ours: daemon.port, bare: bare.port, sdk: sdk.port, ceiling: trivial.port };
  // CPU of every server-side process a contender uses: the baselines use the daemon (its embedded server) only for
  // tools/call; their ping and tools/list answers are canned, so the daemon's CPU is not theirs then.
  const pids = (method: Method) => {
    const viaDaemon = method === 'tools/call' ? [daemon.pid] : [];
    return { ours: [daemon.pid], bare: [bare.child.pid!, ...viaDaemon], sdk: [sdk.child.pid!, ...viaDaemon], ceiling: [trivial.child.pid!] };
  };
  try {
    const rows: string[][] = [];
    const goals: Goal[] = [];
    const cells: Record<string, unknown>[] = [];
    const load = (method: Method, connections: number, name: (typeof CONTENDERS)[number], durationMs = o.durationMs, warmupMs = o.warmupMs) => {
      const body = Buffer.from(JSON.stringify(METHODS[method]));
      const check = name === 'ceiling' ? undefined : checker(method);
      const port = ports[name];
      return () =>
        runLoadWithCpu({
            port,
            method: 'POST',
            path: () => path,
            headers: (c) => ({
              authorization: `Bearer ${runtimes[c % runtimes.length]!.mcpToken}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-protocol-version': '2025-06-18',
            }),
            body: () => body,
            connections,
            durationMs,
            warmupMs,
            ...(check ? { check } : {}),
          }, pids(method)[name]);
    };
    // Warm every contender's JIT on every method before anything is measured.
    for (const method of Object.keys(METHODS) as Method[]) if (!o.methods || o.methods.includes(method)) for (const name of CONTENDERS) await load(method, 32, name, 1000, 0)();
    const methods = (Object.keys(METHODS) as Method[]).filter((x) => !o.methods || o.methods.includes(x));
    for (const method of methods) {
      for (const connections of MCP_CONNECTIONS.filter((c) => !o.connections || o.connections.includes(c))) {
        const r = await alternate<LoadResult & { cpuUsPerReq: number }>(o.rounds, CONTENDERS.map((name) => ({ name, run: load(method, connections, name) })));
        const m = (name: string) => ({
          rps: med(r[name]!, (x) => x.rps),
          p50: med(r[name]!, (x) => x.p50Ms),
          p99: med(r[name]!, (x) => x.p99Ms),
          cpuUs: med(r[name]!, (x) => x.cpuUsPerReq),
          failed: r[name]!.reduce((s, x) => s + x.failed, 0),
          firstFailure: r[name]!.find((x) => x.firstFailure)?.firstFailure,
        });
        const ours = m('ours');
        const b = m('bare');
        const s = m('sdk');
        const c = m('ceiling');
        const near = nearCeiling(Math.max(ours.rps, b.rps, s.rps), c.rps);
        const mark = near ? '~' : '';
        for (const [name, v] of [['ours', ours], ['bare', b], ['sdk', s]] as const) {
          rows.push([method, String(connections), name, fmt(v.rps, 0), fmt(v.p50), fmt(v.p99), fmt(ratio(v.rps, b.rps)) + mark, fmt(ratio(ours.rps, v.rps)) + mark, fmt(v.cpuUs, 0), fmt(ratio(v.cpuUs, ours.cpuUs)), String(v.failed)]);
        }
        rows.push([method, String(connections), 'ceiling', fmt(c.rps, 0), fmt(c.p50), fmt(c.p99), `${fmt(ratio(Math.max(ours.rps, b.rps, s.rps), c.rps))} fastest/ceiling`, '', fmt(c.cpuUs, 0), '', String(c.failed)]);
        cells.push({ method, connections, ours, bare: b, sdk: s, ceiling: c, fastestOverCeiling: ratio(Math.max(ours.rps, b.rps, s.rps), c.rps), unreliable: near ?? null, oursOverBare: ratio(ours.rps, b.rps), oursOverSdk: ratio(ours.rps, s.rps), rounds: r });
        // tools/call: bare makes the same ServerClient call (same server work), so ours is held to bare, not to a multiple of the SDK.
        if (method !== 'tools/list') goals.push(goalNear(`${method} @${connections} conns: ours/bare throughput`, ratio(ours.rps, b.rps), '>=', 0.8, near));
        if (method !== 'tools/call') goals.push(goalNear(`${method} @${connections} conns: ours/SDK throughput`, ratio(ours.rps, s.rps), '>=', 5, near));
      }
    }
    const t = table(['method', 'conns', 'server', 'req/s', 'p50 ms', 'p99 ms', 'x bare', 'ours/x', 'CPU us/req', 'CPU x/ours', 'failed'], rows);
    const note =
      'bare = node:http + same auth checks, canned ping/tools/list, ServerClient for tools/call (no admission, fences, negotiation, validation or budget);\n' +
      'sdk = McpServer + StreamableHTTPServerTransport, stateless JSON, fresh server+transport per request, same auth checks.\n' +
      'ceiling = a trivial node:http server (canned answer, no parsing) in its own process, driven by the same autocannon process with the same\n' +
      `connections in the same rounds: the generator's ceiling. A ratio marked ~ is unreliable: the fastest server came within 80 % of it.\n` +
      'Load: autocannon 9 in a child process; every connection\'s answer is checked (status and body) before and after each 1 s window.\n' +
      'CPU us/req = user+system CPU of the server-side processes a contender uses per answered request: the daemon for ours; the baseline\n' +
      'alone for bare/sdk ping and tools/list (canned answers), baseline + daemon for their tools/call (ServerClient to the embedded server);\n' +
      'CPU x/ours = how much more CPU x spends than ours.\n' +
      `${RUNTIMES} runtimes share the connections (conn i uses runtime i mod ${RUNTIMES}); medians of ${o.rounds} alternating rounds.`;
    return { name: 'mcp', table: `${t}\n${note}`, goals, json: { connections: MCP_CONNECTIONS, runtimes: RUNTIMES, seedMessages: SEED_MESSAGES, cells } };
  } finally {
    await bare.stop();
    await sdk.stop();
    await trivial.stop();
  }
}
