// End-to-end: kill -9 of the daemon mid-turn: the cut-off turn is not re-run (its orphaned runtime is stopped, one
// "interrupted" notice), the queued one runs once.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../src/shared/proc.js';
import { TestDaemon, cliJson } from './harness.js';
import { addTurnAgent, messages, post, readLog, turns, waitFor } from './turns-kit.js';

const d = new TestDaemon();
const dir = mkdtempSync(join(tmpdir(), 'agentteam-crash-'));
after(async () => {
  writeFileSync(join(dir, 'release'), '');
  await d.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test('kill -9 mid-turn: no turn delivered twice, none skipped; the cut-off turn gets one interrupted notice', async () => {
  await d.start();
  const log = join(dir, 'kim.log');
  const release = join(dir, 'release');
  const kim = await addTurnAgent(d, 'kim', log, 'slow', release);
  const m1 = await post(d, 'channel:general', '@kim first');
  const m2 = await post(d, 'channel:general', '@kim second');
  await waitFor('the first turn to start', () => readLog(log).some((r) => r.ev === 'start' && r.messageId === m1.id));
  process.kill(d.pid, 'SIGKILL');
  await waitFor('the daemon to die', () => !processAlive(d.pid));
  // The runtime of turn 1 outlives the daemon (its own process group) until the next daemon stops it.
  const orphan = readLog(log).find((r) => r.ev === 'start' && r.messageId === m1.id)!.pid;
  assert.equal(processAlive(orphan), true);

  const r = await d.run(['daemon', 'start']);
  assert.equal(r.code, 0, r.stderr);
  d.pid = cliJson(r).pid;
  await waitFor('the orphaned runtime to be stopped', () => !processAlive(orphan));
  writeFileSync(release, '');
  const m3 = await post(d, 'channel:general', '@kim third');
  await waitFor('turns 2 and 3 to finish', async () => (await messages(d, 'channel:general')).filter((x) => x.author.id === kim.id && x.content.startsWith('reply to')).length === 2);
  const all = await messages(d, 'channel:general');
  const mine = all.filter((x) => x.author.id === kim.id).map((x) => x.content);
  assert.deepEqual([...mine].sort(), [`kim could not answer (interrupted): the daemon stopped while this turn ran`, `reply to ${m2.id}`, `reply to ${m3.id}`].sort());
  const starts = readLog(log).filter((x) => x.ev === 'start').map((x) => x.messageId);
  assert.deepEqual(starts, [m1.id, m2.id, m3.id]);
  assert.deepEqual(readLog(log).filter((x) => x.ev === 'end').map((x) => x.messageId), [m2.id, m3.id], 'the cut-off runtime never finished');
  const logged = await turns(d, 'kim');
  assert.deepEqual(logged.map((t) => [t.messageId, t.outcome]), [[m3.id, 'ok'], [m2.id, 'ok'], [m1.id, 'interrupted']]);
});
