// End-to-end: removing, disabling and orphaned agents leave nothing behind (runtimes revoked first); another owner's profile stays invisible.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cliJson, http, runExecSteps, TestDaemon } from '../../../test/harness.js';

const d = new TestDaemon();
const wd = mkdtempSync(join(tmpdir(), 'agentteam-life-'));
const ids: Record<string, string> = {};
let serverId = '';

/** A detached runtime that records its token file path and Exec token, then sleeps. */
async function launch(agent: string): Promise<{ runId: string; tokenFile: string; token: string }> {
  const out = join(wd, `${agent}.txt`);
  const r = await d.run(['runtime', 'start', '--agent', agent, '--workdir', wd, '--detach', '--', 'sh', '-c', `printf '%s %s' "$AGENTTEAM_EXEC_TOKEN_FILE" "$(cat "$AGENTTEAM_EXEC_TOKEN_FILE")" > ${out}.tmp; mv ${out}.tmp ${out}; sleep 120`]);
  assert.equal(r.code, 0, r.stderr);
  for (let i = 0; i < 200 && !existsSync(out); i++) await new Promise((res) => setTimeout(res, 50));
  const [tokenFile, token] = readFileSync(out, 'utf8').split(' ');
  return { runId: r.stdout.trim(), tokenFile: tokenFile!, token: token! };
}

async function runStatus(runId: string): Promise<string> {
  const runs = cliJson(await d.run(['runtime', 'ls', '--json'])) as Array<{ runId: string; status: string }>;
  return runs.find((x) => x.runId === runId)?.status ?? 'absent';
}

/** An Exec call with a runtime's token; 403 once its authorization is revoked. */
async function execStatus(agentId: string, token: string): Promise<number> {
  const path = `/api/internal/exec/servers/${serverId}/agents/${agentId}/agent/list`;
  return (await http(d.port, 'POST', path, { headers: { host: `127.0.0.1:${d.port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' })).status;
}

/** What the home still holds of an agent: profile, Memory clone, memory index, turn journal rows. */
function leftovers(id: string): string[] {
  const found: string[] = [];
  if (existsSync(join(d.home, 'profiles', `${id}.json`))) found.push('profile');
  if (existsSync(join(d.home, 'memory', id))) found.push('memory clone');
  if (readdirSync(join(d.home, 'memory-index')).some((f) => f.startsWith(id))) found.push('memory index');
  const db = new Database(join(d.home, 'sessions.db'), { readonly: true, fileMustExist: true });
  for (const t of ['cursors', 'turns', 'sessions']) if ((db.prepare(`SELECT COUNT(*) AS n FROM ${t} WHERE agent_id = ?`).get(id) as { n: number }).n > 0) found.push(`journal ${t}`);
  db.close();
  return found;
}

/** Deletes an agent member from the embedded server's SQLite file (as if it were removed on the server). */
function dropMember(id: string): void {
  const db = new Database(join(d.home, 'server.db'));
  db.pragma('busy_timeout = 10000');
  db.prepare('DELETE FROM channel_members WHERE member_id = ?').run(id);
  db.prepare('DELETE FROM members WHERE id = ?').run(id);
  db.close();
}

before(async () => {
  await d.start();
  for (const n of ['keep', 'rmme', 'off', 'gone1', 'gone2']) ids[n] = (await d.addAgent(n)).id;
  serverId = cliJson(await d.run(['daemon', 'status'])).server.serverId;
});
after(() => d.dispose());

test('agent rm stops the live runtime (its token is refused) before the profile goes, and leaves no profile, clone, index or journal row', async () => {
  const run = await launch('rmme');
  assert.equal(await execStatus(ids.rmme!, run.token), 200);
  assert.ok(leftovers(ids.rmme!).includes('memory clone'), 'the launch made a clone');
  const credential = (JSON.parse(readFileSync(join(d.home, 'profiles', `${ids.rmme}.json`), 'utf8')) as { credential: string }).credential;
  const rm = await d.run(['agent', 'rm', 'rmme']);
  assert.equal(rm.code, 0, rm.stderr);
  assert.ok(!(cliJson(await d.run(['member', 'ls'])) as Array<{ id: string }>).some((m) => m.id === ids.rmme), 'the server member is gone');
  const server = new URL(cliJson(await d.run(['daemon', 'status'])).server.url as string);
  assert.equal((await http(Number(server.port), 'GET', '/v1/me', { headers: { host: server.host, authorization: `Bearer ${credential}` } })).status, 403, "the agent's server credential is refused");
  assert.equal(await runStatus(run.runId), 'exited');
  assert.equal(existsSync(run.tokenFile), false);
  assert.equal(await execStatus(ids.rmme!, run.token), 403);
  assert.deepEqual(leftovers(ids.rmme!), []);
  assert.notEqual((await d.run(['agent', 'get', 'rmme'])).code, 0);
});

test('agent update --name renames the server member too; a name another agent holds is refused and changes neither side', async () => {
  const id = (await d.addAgent('ren')).id;
  const nameOnServer = async () => (cliJson(await d.run(['member', 'ls'])) as Array<{ id: string; name: string }>).find((m) => m.id === id)?.name;
  const up = await d.run(['agent', 'update', 'ren', '--name', 'ren2']);
  assert.equal(up.code, 0, up.stderr);
  assert.equal(await nameOnServer(), 'ren2');
  assert.equal(cliJson(await d.run(['agent', 'get', 'ren2'])).id, id);
  const taken = await d.run(['agent', 'update', 'ren2', '--name', 'keep']);
  assert.notEqual(taken.code, 0);
  assert.match(taken.stderr, /already exists/);
  assert.equal(await nameOnServer(), 'ren2');
  assert.equal(cliJson(await d.run(['agent', 'get', 'ren2'])).id, id);
  assert.equal((await d.run(['agent', 'rm', 'ren2'])).code, 0);
});

test('agent disable stops the live runtime and refuses launches; enable allows them again', async () => {
  const run = await launch('off');
  assert.equal(cliJson(await d.run(['agent', 'disable', 'off'])).enabled, false);
  assert.equal(await runStatus(run.runId), 'exited');
  assert.equal(await execStatus(ids.off!, run.token), 403);
  assert.notEqual((await d.run(['runtime', 'start', '--agent', 'off', '--', 'true'])).code, 0);
  assert.equal(cliJson(await d.run(['agent', 'enable', 'off'])).enabled, true);
  assert.equal((await d.run(['runtime', 'start', '--agent', 'off', '--', 'true'])).code, 0);
});

test('agent reload removes a profile whose server member is gone: its runtime is revoked first and nothing is left', async () => {
  const run = await launch('gone1');
  const first = await runExecSteps(d, 'keep', [{ name: 'p1', run: ['agent', 'list'], input: { limit: 1 } }]);
  dropMember(ids.gone1!);
  const r = cliJson(await d.run(['agent', 'reload']));
  assert.deepEqual(r.orphans, [ids.gone1]);
  assert.equal(await runStatus(run.runId), 'exited');
  assert.equal(await execStatus(ids.gone1!, run.token), 403);
  assert.deepEqual(leftovers(ids.gone1!), []);
  const after = await runExecSteps(d, 'keep', [
    { name: 'all', run: ['agent', 'list'], input: {} },
    { name: 'stale', run: ['agent', 'list'], input: { limit: 1, cursor: first.p1.out.data.nextCursor } },
  ]);
  assert.ok(!after.all.out.data.agents.some((a: { agentId: string }) => a.agentId === ids.gone1));
  assert.equal(after.stale.out.error.code, 'validation_failed', 'the cleanup invalidated the revision');
});

test('at start the daemon removes a profile whose server member went away while it was stopped', async () => {
  await d.stop();
  dropMember(ids.gone2!);
  await d.start();
  const names = (cliJson(await d.run(['agent', 'ls', '--json'])) as Array<{ name: string }>).map((a) => a.name).sort();
  assert.deepEqual(names, ['keep', 'off']);
  assert.deepEqual(leftovers(ids.gone2!), []);
  assert.match(readFileSync(join(d.home, 'logs', 'daemon.log'), 'utf8'), /removed local agents whose server member is gone/);
});

test('a profile file another owner added is never listed, read, launched or removed', async () => {
  const file = join(d.home, 'profiles', 'agt_foreign.json');
  const foreign = { id: 'agt_foreign', name: 'foreign', runtime: 'command', createdAt: '2026-01-01T00:00:00.000Z', owner: 'mem_someone_else', credential: 'ats_foreign-cred-S3CR3T', apiKey: 'sk-foreign-S3CR3T' };
  writeFileSync(file, JSON.stringify(foreign));
  chmodSync(file, 0o600);
  const r = cliJson(await d.run(['agent', 'reload']));
  assert.deepEqual(r.orphans, []);
  assert.equal(existsSync(file), true, 'not this owner\'s to remove');
  const ls = await d.run(['agent', 'ls', '--json']);
  assert.ok(!ls.stdout.includes('foreign'));
  assert.notEqual((await d.run(['agent', 'get', 'agt_foreign'])).code, 0);
  assert.notEqual((await d.run(['runtime', 'start', '--agent', 'foreign', '--', 'true'])).code, 0);
  const x = await runExecSteps(d, 'keep', [
    { name: 'get', run: ['agent', 'get'], input: { agentId: 'agt_foreign' } },
    { name: 'list', run: ['agent', 'list'], input: { filters: { query: 'foreign' } } },
  ]);
  assert.equal(x.get.out.error.code, 'not_found');
  assert.deepEqual(x.list.out.data.agents, []);
  assert.ok(!JSON.stringify(x).includes('S3CR3T'));
});
