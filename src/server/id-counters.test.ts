// Tests numbered ids on the engine under test: counted in the caller's transaction, never repeated, and in creation order as the lists' tie-break relies on.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../shared/clock.js';
import { NUMBERED_ID_RE, numberedId } from '../shared/ids.js';
import { idCounters } from './id-counters.js';
import { openStore } from './store/open.js';
import type { Store } from './store/types.js';
import { startTestServer, type TestServer } from '../domains/test-server.js';
import { SCHEMA } from '../domains/registry.js';

let ts: TestServer;
let store: Store;
// Time stands still: every row below gets one created_at, so only the id tells creation order.
const frozen = Date.UTC(2026, 11, 1);
before(async () => {
  ts = await startTestServer({ clock: { now: () => frozen, setTimer: systemClock.setTimer } });
  store = await openStore(ts.db, { schema: SCHEMA });
});
after(async () => {
  await store.close();
  await ts.stop();
});

test('120 tasks made in one millisecond list newest first in exact creation order, across the 9→10 and 99→100 boundaries', async () => {
  const made: string[] = [];
  for (let i = 0; i < 120; i++) made.push((await ts.owner.tasks.create({ title: `t${i}` })).id);
  for (const id of made) assert.match(id, NUMBERED_ID_RE);
  assert.equal(made[0], 'tsk11', 'a fresh database numbers from 1');
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const p = await ts.owner.tasks.list({ limit: 7, ...(cursor ? { cursor } : {}) });
    seen.push(...p.tasks.map((t) => t.id));
    cursor = p.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, [...made].reverse());
});

test('messages sent in one millisecond read back in sending order, and each kind counts on its own', async () => {
  const sent: string[] = [];
  for (let i = 0; i < 15; i++) sent.push((await ts.owner.messages.send({ target: 'channel:general', content: `m${i}` })).id);
  const page = await ts.owner.messages.list({ target: 'channel:general', limit: 15 });
  assert.deepEqual(page.messages.map((m) => m.id), [...sent].reverse());
  const project = await ts.owner.projects.create({ name: 'numbered' });
  assert.equal(project.id, 'prj11', 'projects have their own counter');
});

test('ids taken at once are ascending and distinct; concurrent transactions never get the same id', async () => {
  const ids = idCounters(store.dialect);
  const five = await store.tx((sql) => ids.take(sql, 'wfs', 5));
  assert.deepEqual([...five].sort(), five);
  assert.equal(new Set(five).size, 5);
  const parallel = await Promise.all(Array.from({ length: 40 }, () => store.tx((sql) => ids.next(sql, 'wfs'))));
  const all = [...five, ...parallel];
  assert.equal(new Set(all).size, all.length);
  for (const id of all) assert.match(id, NUMBERED_ID_RE);
  await assert.rejects(store.tx((sql) => ids.next(sql, 'zzz' as never)), /not a numbered id kind/);
});

test('a rolled-back transaction never makes a later id repeat one that was kept (SQLite gives the number back)', async () => {
  const ids = idCounters(store.dialect);
  const kept = await store.tx((sql) => ids.next(sql, 'rev'));
  let dropped = '';
  await assert.rejects(
    store.tx(async (sql) => {
      dropped = await ids.next(sql, 'rev');
      throw new Error('roll back');
    }),
    /roll back/,
  );
  const after = await store.tx((sql) => ids.next(sql, 'rev'));
  assert.notEqual(after, kept);
  assert.ok(after > kept, `${after} after ${kept}`);
  if (store.dialect === 'sqlite') assert.equal(after, dropped, 'the rolled-back number is reused: no gap');
  else assert.ok(after > dropped, 'a sequence leaves a gap instead');
});

test('guessable ids give an outsider nothing: walking every message id, a DM it is not in answers exactly as a missing id does', async () => {
  const insider = await ts.owner.members.createAgent({ name: 'insider' });
  const outsider = ts.client.as((await ts.owner.members.createAgent({ name: 'outsider' })).credential);
  const dm = await ts.owner.channels.openDm({ memberIds: [insider.agent.id] });
  const hidden: string[] = [];
  for (const content of ['the key is in the vault', 'rotate it friday']) hidden.push((await ts.owner.messages.send({ target: `dm:${dm.id}`, content })).id);
  const last = Number(hidden.at(-1)!.slice(4));
  const answers = new Map<string, string>();
  for (let n = 1; n <= last + 3; n++) {
    const id = numberedId('msg', n);
    const e = await outsider.messages.react({ messageId: id, emoji: '👀' }).then(() => undefined, (x: { code?: string; message?: string }) => `${x.code}: ${x.message}`);
    answers.set(id, String(e));
  }
  for (const id of hidden) assert.equal(answers.get(id), answers.get(numberedId('msg', last + 3)), `${id} answers like a message that does not exist`);
  assert.match(answers.get(hidden[0]!)!, /^not_found: /);
  assert.deepEqual((await ts.owner.messages.list({ target: `dm:${dm.id}`, limit: 5 })).messages.map((m) => m.reactions.length), [0, 0], 'no reaction landed');
});
