// End-to-end: runtime launch through the daemon: canonical env, private token file, bound credentials, revocation on exit.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { processAlive, processStartTime } from '../src/shared/proc.js';
import { TestDaemon, cliJson, http } from './harness.js';

// The daemon's own environment is poisoned with every spelling a runtime must never inherit.
const POISON: Record<string, string> = {
  AGENTTEAM_EXEC_TOKEN: 'poison-exec-token',
  agentteam_exec_token: 'poison-lower',
  Agentteam_Exec_Base_Url: 'http://poison.invalid',
  AGENTTEAM_EXEC_TOKEN_FILE: '/tmp/poison-file',
  AGENTTEAM_EXTENSION_TOKEN: 'poison-ext',
  AGENTTEAM_EXT_TOKEN: 'poison-ext2',
  AGENTTEAM_MCP_TOKEN: 'poison-mcp',
  agentteam_mcp_url: 'http://poison.invalid/mcp',
  // Not credentials of the runtime, still AgentTeam's: secret sources and settings in any case or punctuation.
  AGENTTEAM_SERVER_ADMIN_TOKEN: 'poison-admin',
  agentteam_server_admin_token: 'poison-admin-lower',
  'Agent-Team.Server-Admin-Token': 'poison-admin-punct',
  AGENTTEAM_LOG_LEVEL: 'info',
  AgentTeam_Anything: 'poison-any',
};

const d = new TestDaemon(undefined, POISON);
let agent: { id: string; name: string };
let other: { id: string; name: string };
let serverId: string;
const workdir = mkdtempSync(join(tmpdir(), 'agentteam-wd-'));

before(async () => {
  await d.start();
  agent = await d.addAgent('demo');
  other = await d.addAgent('other');
  serverId = cliJson(await d.run(['daemon', 'status'])).server.serverId;
});
after(() => d.dispose());

const SCRIPT = `printf 'ENV<<%s>>\\n' "$(env | grep -i '^agent[^a-z0-9]*team' | sort | tr '\\n' '|')"; printf 'FILE<<%s>>\\n' "$AGENTTEAM_EXEC_TOKEN_FILE"; printf 'TOKEN<<%s>>\\n' "$(cat "$AGENTTEAM_EXEC_TOKEN_FILE")"; printf 'WHICH<<%s>>\\n' "$(command -v agentteam)"`;

function field(out: string, name: string): string {
  const m = new RegExp(`${name}<<([^>]*)>>`).exec(out);
  assert.ok(m, `${name} missing in: ${out}`);
  return m[1]!;
}

test('a launched runtime sees exactly the canonical variables, a private token file and our agentteam first on PATH', async () => {
  const r = await d.run(['runtime', 'start', '--agent', 'demo', '--workdir', workdir, '--', 'sh', '-c', SCRIPT]);
  assert.equal(r.code, 0, r.stderr);
  const env = field(r.stdout, 'ENV').split('|').filter(Boolean);
  const names = env.map((l) => l.slice(0, l.indexOf('='))).sort();
  assert.deepEqual(names, ['AGENTTEAM_EXEC_BASE_URL', 'AGENTTEAM_EXEC_TOKEN_FILE', 'AGENTTEAM_MCP_CHILD_TOKEN', 'AGENTTEAM_MCP_TOKEN', 'AGENTTEAM_MCP_URL', 'AGENTTEAM_MEMORY_DIR']);
  assert.ok(!r.stdout.includes('poison'), 'no poisoned value reaches the runtime');
  const base = env.find((l) => l.startsWith('AGENTTEAM_EXEC_BASE_URL='))!.split('=')[1]!;
  assert.equal(base, `http://127.0.0.1:${d.port}/api/internal/exec/servers/${serverId}/agents/${agent.id}`);
  const token = field(r.stdout, 'TOKEN');
  assert.match(token, /^atx_/);
  const file = field(r.stdout, 'FILE');
  assert.ok(file.startsWith(join(d.home, 'run', 'credentials')));
  assert.equal(field(r.stdout, 'WHICH'), join(dirname(dirname(import.meta.filename)), 'bin', 'agentteam'));
  // The process exited: the file and its dir are gone and the token is dead.
  assert.equal(existsSync(file), false);
  assert.equal(existsSync(dirname(file)), false);
  const probe = await http(d.port, 'GET', `/api/internal/exec/servers/${serverId}/agents/${agent.id}/catalog`, { headers: { authorization: `Bearer ${token}`, host: `127.0.0.1:${d.port}` } });
  assert.equal(probe.status, 403);
});

test("a runtime's PWD is its workdir, not the daemon's (runtimes such as OpenCode take their project folder from PWD)", async () => {
  // node keeps an inherited PWD as it is (a POSIX shell would reset a stale one), so this sees what the launcher passed.
  const r = await d.run(['runtime', 'start', '--agent', 'demo', '--workdir', workdir, '--', process.execPath, '-e', "process.stdout.write('PWD<<' + process.env.PWD + '>>')"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(field(r.stdout, 'PWD'), workdir);
  assert.notEqual(process.cwd(), workdir);
});

test('a running runtime token works on its own routes only; every denial is the same bytes; exit revokes within 1 s', async () => {
  // The runtime waits until a marker file appears, so we can probe while it lives.
  const marker = join(workdir, 'go');
  const script = `printf 'TOKEN<<%s>>\\nMCP<<%s>>\\nFILE<<%s>>\\n' "$(cat "$AGENTTEAM_EXEC_TOKEN_FILE")" "$AGENTTEAM_MCP_TOKEN" "$AGENTTEAM_EXEC_TOKEN_FILE" > out.txt; while [ ! -f go ]; do sleep 0.05; done`;
  const start = await d.run(['runtime', 'start', '--agent', agent.id, '--workdir', workdir, '--detach', '--', 'sh', '-c', script]);
  assert.equal(start.code, 0, start.stderr);
  const runId = start.stdout.trim();
  assert.match(runId, /^run_/);
  const { readFileSync } = await import('node:fs');
  let out = '';
  for (let i = 0; i < 100 && !out.includes('FILE<<'); i++) {
    await new Promise((r) => setTimeout(r, 50));
    out = existsSync(join(workdir, 'out.txt')) ? readFileSync(join(workdir, 'out.txt'), 'utf8') : '';
  }
  const token = field(out, 'TOKEN');
  const mcp = field(out, 'MCP');
  const file = field(out, 'FILE');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(dirname(file)).mode & 0o777, 0o700);
  const host = `127.0.0.1:${d.port}`;
  const catalog = (sid: string, aid: string, bearer?: string) =>
    http(d.port, 'GET', `/api/internal/exec/servers/${sid}/agents/${aid}/catalog`, { headers: { host, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) } });
  const ok = await catalog(serverId, agent.id, token);
  assert.equal(ok.status, 200, ok.body);
  assert.ok(JSON.parse(ok.body).ok);
  const denials = await Promise.all([
    catalog(serverId, agent.id),
    catalog(serverId, agent.id, 'atx_unknown'),
    catalog(serverId, agent.id, mcp), // MCP token on an Exec route: wrong scope
    catalog(serverId, other.id, token), // another agent's path
    catalog('srv_other', agent.id, token), // another server's path
    catalog(serverId, agent.id, d.ownerToken()),
  ]);
  for (const r of denials) {
    assert.equal(r.status, 403);
    assert.equal(r.body, denials[0]!.body);
    assert.equal(r.headers['www-authenticate'], undefined);
  }
  const runtimes = cliJson(await d.run(['runtime', 'ls']));
  const live = runtimes.find((x: any) => x.runId === runId);
  assert.equal(live?.status, 'running');
  assert.match(live.processStartTime, /^\d+$/, 'the run records its process start time');
  // Let it exit and measure how fast the token dies.
  const { writeFileSync } = await import('node:fs');
  writeFileSync(marker, '');
  let dead = false;
  for (let i = 0; i < 20 && !dead; i++) {
    await new Promise((r) => setTimeout(r, 50));
    dead = (await catalog(serverId, agent.id, token)).status === 403;
  }
  assert.ok(dead, 'token rejected within 1 s of exit');
  // The files go after revocation and the (bounded) drain: wait for them up to the drain bound, not a fixed second. The
  // file is unlinked before its directory is removed, so wait for the directory (a check between the two saw it still there).
  for (let i = 0; i < 600 && existsSync(dirname(file)); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(existsSync(file), false);
  assert.equal(existsSync(dirname(file)), false);
  const revoked = await catalog(serverId, agent.id, token);
  assert.equal(revoked.body, denials[0]!.body, 'revoked looks exactly like unknown');
  // Nothing the daemon wrote holds either secret.
  const all = d.allText();
  assert.ok(!all.includes(token), 'exec token not in home/logs');
  assert.ok(!all.includes(mcp), 'mcp token not in home/logs');
  assert.equal(readdirSync(join(d.home, 'run', 'credentials')).length, 0);
});

test('runtime stop ends the process group and revokes; a missing command is a clear error', async () => {
  const start = await d.run(['runtime', 'start', '--agent', 'demo', '--workdir', workdir, '--detach', '--', 'sh', '-c', 'sleep 30 & wait']);
  const runId = start.stdout.trim();
  const stop = await d.run(['runtime', 'stop', runId]);
  assert.equal(stop.code, 0, stop.stderr);
  assert.equal(cliJson(stop).status, 'exited');
  const missing = await d.run(['runtime', 'start', '--agent', 'demo', '--workdir', workdir, '--', 'definitely-not-a-binary-xyz']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /could not start/);
  assert.equal(readdirSync(join(d.home, 'run', 'credentials')).length, 0, 'a launch abort leaves no credential behind');
  const status = cliJson(await d.run(['daemon', 'status']));
  assert.equal(status.counts.runtimes, 0);
});

test('kill -9 of the daemon with a live runtime: the next daemon stops its whole process group and removes stale credentials before serving', async () => {
  // The runtime forks a grandchild in its group; both must be gone once the next daemon serves.
  const start = await d.run(['runtime', 'start', '--agent', 'demo', '--workdir', workdir, '--detach', '--', 'sh', '-c', 'sleep 300 & echo $! > child.pid; wait']);
  assert.equal(start.code, 0);
  const runId = start.stdout.trim();
  const pid = (cliJson(await d.run(['runtime', 'ls'])) as Array<{ runId: string; pid: number }>).find((r) => r.runId === runId)!.pid;
  for (let i = 0; i < 100 && !existsSync(join(workdir, 'child.pid')); i++) await new Promise((r) => setTimeout(r, 50));
  const grandchild = Number(readFileSync(join(workdir, 'child.pid'), 'utf8'));
  assert.equal(readdirSync(join(d.home, 'run', 'credentials')).length, 1);
  process.kill(d.pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(readdirSync(join(d.home, 'run', 'credentials')).length, 1, 'the crash left the credential dir');
  assert.ok(processAlive(pid) && processAlive(grandchild), 'the runtime kept running unmanaged');
  await d.start();
  assert.equal(processAlive(pid), false, 'the runtime was stopped before the daemon served');
  assert.equal(processAlive(grandchild), false, 'its whole process group was stopped');
  assert.equal(readdirSync(join(d.home, 'run', 'credentials')).length, 0);
  assert.equal(readdirSync(join(d.home, 'run', 'runtimes')).length, 0);
});

test('a run record whose pid now belongs to an unrelated process (other start time) never gets it killed', async () => {
  const bystander = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  try {
    await d.stop();
    const dir = join(d.home, 'run', 'runtimes', 'run_reused');
    mkdirSync(dir, { mode: 0o700 });
    const real = processStartTime(bystander.pid!)!;
    writeFileSync(join(dir, 'run.json'), JSON.stringify({ runId: 'run_reused', pid: bystander.pid, processStartTime: String(BigInt(real) - 1n) }), { mode: 0o600 });
    await d.start();
    assert.ok(processAlive(bystander.pid!), 'the unrelated process that reused the pid still runs');
    assert.equal(existsSync(dir), false, 'the stale record is removed');
  } finally {
    bystander.kill('SIGKILL');
  }
});
