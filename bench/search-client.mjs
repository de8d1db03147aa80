// Owns the search-path benchmark's runtime: a `command` agent's turn that times MCP ping, memory_search and kb_search over one
// keep-alive connection to its own $AGENTTEAM_MCP_URL, a bare node:http ping with the same client, and rg over the same files.
// argv: <config.json>. Config: { barePort, barePid, daemonPid, rgDir, rare[], common, rounds, n, nCommon, nRg, out }.
// Results go to config.out (0600); the bearer is read from the environment and never written anywhere.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for await (const _ of process.stdin); // the turn prompt (unused)
const env = process.env;
const mcpUrl = new URL(env.AGENTTEAM_MCP_URL);
const headers = { authorization: `Bearer ${env.AGENTTEAM_MCP_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/** One keep-alive connection per server: each contender is timed on its own warm socket, one request in flight. */
const daemonAgent = new Agent({ keepAlive: true, maxSockets: 1 });
const bareAgent = new Agent({ keepAlive: true, maxSockets: 1 });

/** POSTs `body`; resolves with [ms from write to the last byte, status, text]. The text is parsed after the clock stops. */
function post(agent, port, path, body) {
  const buf = Buffer.from(body);
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const req = request({ agent, host: '127.0.0.1', port, method: 'POST', path, headers: { ...headers, 'content-length': buf.length } }, (r) => {
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => res([performance.now() - t0, r.statusCode, Buffer.concat(chunks).toString('utf8')]));
      r.on('error', rej);
    });
    req.on('error', rej);
    req.end(buf);
  });
}

let id = 0;
const rpc = (method, params) => JSON.stringify({ jsonrpc: '2.0', id: ++id, method, ...(params ? { params } : {}) });
const mcp = (body) => post(daemonAgent, Number(mcpUrl.port), mcpUrl.pathname, body);

/** A tools/call whose answer must be a success with at least one hit (a failed or empty search would time nothing useful). */
async function search(tool, query) {
  const [ms, status, text] = await mcp(rpc('tools/call', { name: tool, arguments: { query, limit: 5 } }));
  const r = JSON.parse(text).result;
  if (status !== 200 || !r || r.isError || !(r.structuredContent?.hits?.length > 0)) throw new Error(`${tool} ${JSON.stringify(query)}: HTTP ${status} ${text.slice(0, 300)}`);
  return ms;
}
async function ping() {
  const [ms, status, text] = await mcp(rpc('ping'));
  if (status !== 200 || !text.includes('"result":{}')) throw new Error(`ping: HTTP ${status} ${text.slice(0, 200)}`);
  return ms;
}
async function barePing() {
  const [ms, status] = await post(bareAgent, cfg.barePort, '/', rpc('ping'));
  if (status !== 200) throw new Error(`bare ping: HTTP ${status}`);
  return ms;
}
function rg(words) {
  const t0 = performance.now();
  const out = spawnSync('rg', ['-n', '-i', '-F', '--max-columns', '200', ...words.flatMap((w) => ['-e', w]), '--', cfg.rgDir], { maxBuffer: 512 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (out.status !== 0) throw new Error(`rg ${words.join(' ')}: exit ${out.status}`);
  return ms;
}

/** utime + stime of a process in clock ticks (Linux); `self` children: the reaped rg processes. */
function ticks(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return pid === 'self' ? Number(f[13]) + Number(f[14]) : Number(f[11]) + Number(f[12]);
}

// Before timing: the memory index holds the whole corpus once its last file (written last) is found.
for (let i = 0; ; i++) {
  const [, , text] = await mcp(rpc('tools/call', { name: 'memory_search', arguments: { query: cfg.lastWord, limit: 1 } }));
  if (JSON.parse(text).result?.structuredContent?.hits?.length) break;
  if (i > 6000) throw new Error(`the memory index never found ${cfg.lastWord}: ${text.slice(0, 300)}`);
  await new Promise((r) => setTimeout(r, 50));
}

const rare = (i) => cfg.rare[i % cfg.rare.length];
const haveRg = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
/** Contenders, each with the processes its CPU is charged to (the daemon's embedded server is a thread of the daemon). */
const contenders = [
  { name: 'ping', pid: cfg.daemonPid, n: cfg.n, run: () => ping() },
  { name: 'barePing', pid: cfg.barePid, n: cfg.n, run: () => barePing() },
  { name: 'memoryRare', pid: cfg.daemonPid, n: cfg.n, run: (i) => search('memory_search', rare(i)) },
  { name: 'kbRare', pid: cfg.daemonPid, n: cfg.n, run: (i) => search('kb_search', rare(i)) },
  { name: 'memoryCommon', pid: cfg.daemonPid, n: cfg.nCommon, run: () => search('memory_search', cfg.common) },
  { name: 'kbCommon', pid: cfg.daemonPid, n: cfg.nCommon, run: () => search('kb_search', cfg.common) },
  // rg only where it is installed (apt-get install ripgrep); without it the table says so.
  ...(haveRg ? [{ name: 'rgRare', pid: 'self', n: cfg.nRg, run: (i) => rg([rare(i)]) }, { name: 'rgCommon', pid: 'self', n: cfg.nRg, run: () => rg(cfg.common.split(' ')) }] : []),
];
const times = Object.fromEntries(contenders.map((c) => [c.name, []]));
const cpu = Object.fromEntries(contenders.map((c) => [c.name, 0]));
// Warm-up (untimed), then rounds: every contender takes its turn in each round, so a burst of load lands on all of them.
for (const c of contenders) for (let i = 0; i < Math.min(c.n, 20); i++) await c.run(i);
for (let round = 0; round < cfg.rounds; round++) {
  for (const c of contenders) {
    // rg blocks run spawnSync for well under the daemon's 5 s keep-alive timeout, so the kept socket is still open after them.
    const t0 = ticks(c.pid);
    for (let i = 0; i < c.n; i++) times[c.name].push(await c.run(i + round * c.n));
    cpu[c.name] += ticks(c.pid) - t0;
  }
}
const tick = 1e6 / 100; // µs per clock tick (USER_HZ is 100 on Linux)
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const rows = Object.fromEntries(contenders.map((c) => [c.name, { p50: pct(times[c.name], 50), p99: pct(times[c.name], 99), n: times[c.name].length, cpuUsPerReq: (cpu[c.name] * tick) / times[c.name].length }]));
writeFileSync(cfg.out, JSON.stringify({ rows }), { mode: 0o600 });
daemonAgent.destroy();
bareAgent.destroy();
