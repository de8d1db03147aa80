// Tests keyset pagination end to end: 250 tasks, messages and reviews walked page by page equal a full scan, also under concurrent writes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, ServerApi } from '../server-client/api.js';
import { ServerCallError } from '../server-client/client.js';
import { startTestServer, tickingClock, type TestServer } from '../domains/test-server.js';

let t: TestServer;
let api: ServerApi;
const N = 250;

before(async () => {
  t = await startTestServer({ clock: tickingClock() });
  api = t.owner;
});
after(async () => t.stop());

/** Walks every page with `limit`, calling between() after each page; returns ids in page order. */
async function walk<P extends Page>(fetch: (cursor?: string) => Promise<P>, items: (p: P) => { id: string }[], between?: (i: number) => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; ; i++) {
    const p = await fetch(cursor);
    ids.push(...items(p).map((x) => x.id));
    assert.equal(p.hasMore, p.nextCursor !== undefined, 'nextCursor is present exactly when hasMore');
    if (!p.hasMore) {
      assert.equal('nextCursor' in p, false);
      return ids;
    }
    cursor = p.nextCursor;
    if (between) await between(i);
  }
}

function descBy<T extends { id: string }>(rows: T[], key: (r: T) => string): string[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((r) => r.id);
}

test('250 tasks: pages equal the createdAt DESC, id DESC full order, with and without concurrent writes', async () => {
  for (let i = 0; i < N; i++) await api.tasks.create({ title: `task ${i}`, ...(i % 3 === 0 ? { assigneeId: t.ownerId } : {}) });
  const full: { id: string; createdAt: string }[] = [];
  for (const id of await walk((c) => api.tasks.list({ limit: 100, ...(c ? { cursor: c } : {}) }), (p) => p.tasks)) full.push(await api.tasks.get({ taskId: id }));
  assert.equal(full.length, N);
  assert.deepEqual(full.map((x) => x.id), descBy(full, (x) => x.createdAt));
  const paged = await walk((c) => api.tasks.list({ limit: 7, ...(c ? { cursor: c } : {}) }), (p) => p.tasks);
  assert.deepEqual(paged, full.map((x) => x.id));
  const defaultPage = await api.tasks.list({});
  assert.equal(defaultPage.tasks.length, 20);

  // Concurrent creates and updates between pages: nothing that existed throughout is skipped or repeated.
  const created: string[] = [];
  const during = await walk(
    (c) => api.tasks.list({ limit: 13, ...(c ? { cursor: c } : {}) }),
    (p) => p.tasks,
    async (i) => {
      created.push((await api.tasks.create({ title: `new ${i}` })).id);
      const victim = full[(i * 37) % N]!;
      const cur = await api.tasks.get({ taskId: victim.id });
      await api.tasks.update({ taskId: victim.id, expectedRevision: cur.revision, title: `${cur.title}!` });
    },
  );
  assert.equal(new Set(during).size, during.length, 'no duplicates');
  assert.deepEqual(during, full.map((x) => x.id), 'exactly the rows that existed throughout, in order');
  assert.ok(created.every((id) => !during.includes(id)), 'rows created after the walk began are newer than every boundary');

  const filtered = await walk((c) => api.tasks.list({ assigneeId: t.ownerId, limit: 10, ...(c ? { cursor: c } : {}) }), (p) => p.tasks);
  assert.equal(filtered.length, Math.ceil(N / 3));
});

test('250 messages: newest first, pages equal the full order under concurrent posts', async () => {
  await api.channels.create({ id: 'walk' });
  const sent: { id: string; createdAt: string }[] = [];
  for (let i = 0; i < N; i++) sent.push(await api.messages.send({ target: 'channel:walk', content: `m${i}` }));
  const expected = descBy(sent, (m) => m.createdAt);
  assert.deepEqual(await walk((c) => api.messages.list({ target: 'channel:walk', limit: 100, ...(c ? { cursor: c } : {}) }), (p) => p.messages), expected);
  const during = await walk(
    (c) => api.messages.list({ target: 'channel:walk', limit: 9, ...(c ? { cursor: c } : {}) }),
    (p) => p.messages,
    async (i) => void (await api.messages.send({ target: 'channel:walk', content: `late ${i}` })),
  );
  assert.equal(new Set(during).size, during.length);
  assert.deepEqual(during, expected);
});

test('250 reviews: updatedAt DESC, id DESC; inserts never disturb a walk, a moved review makes its cursor stale', async () => {
  const task = await api.tasks.create({ title: 'reviewed' });
  const target = `task:${task.id}`;
  for (let i = 0; i < N; i++) await api.reviews.add({ target, verdict: 'comment', body: `r${i}` });
  const full: { id: string; updatedAt: string }[] = [];
  for (const id of await walk((c) => api.reviews.list({ target, limit: 100, ...(c ? { cursor: c } : {}) }), (p) => p.reviews)) full.push(await api.reviews.get({ reviewId: id }));
  assert.equal(full.length, N);
  assert.deepEqual(full.map((r) => r.id), descBy(full, (r) => r.updatedAt));
  // New reviews between pages do not move anything: the walk completes and every earlier row appears exactly once, in order.
  const during = await walk(
    (c) => api.reviews.list({ target, limit: 11, ...(c ? { cursor: c } : {}) }),
    (p) => p.reviews,
    async (i) => void (await api.reviews.add({ target, verdict: 'approve', body: `late ${i}` })),
  );
  assert.equal(new Set(during).size, during.length, 'no duplicates');
  assert.deepEqual(during, full.map((r) => r.id), 'every earlier row, in order (new ones sort before the walk)');
  // A review that moves (resolve bumps updatedAt) between pages makes the rest of the walk stale: rejected, never skipped silently.
  const p1 = await api.reviews.list({ target, limit: 11 });
  await api.reviews.resolve({ reviewId: full[200]!.id });
  await assert.rejects(api.reviews.list({ target, limit: 11, cursor: p1.nextCursor! }), (e) => e instanceof ServerCallError && e.code === 'validation_failed' && /stale/.test(e.message));
});

test('tampered, malformed and mismatched cursors are validation_failed, never page one', async () => {
  const first = await api.tasks.list({ limit: 5 });
  const cursor = first.nextCursor!;
  assert.ok(cursor);
  const cut = cursor.lastIndexOf('~');
  const [payload, sig] = [cursor.slice(0, cut), cursor.slice(cut + 1)];
  const [at, id] = payload.split('~') as [string, string];
  const forged = `${Number(at) + 1000}~${id}`;
  const flip = (s: string) => s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
  const bad = ['', 'garbage', `${forged}~${sig}`, `${payload}~${flip(sig)}`, `${payload}`, `${payload}~${sig}~x`, `${at}~*${id}~${sig}`, `0${at}~${id}~${sig}`, 'a'.repeat(2000)];
  for (const c of bad) {
    await assert.rejects(api.tasks.list({ limit: 5, cursor: c }), (e) => e instanceof ServerCallError && e.code === 'validation_failed', `cursor ${c.slice(0, 20)}`);
  }
  // Same collection, different filter; different collection.
  await assert.rejects(api.tasks.list({ limit: 5, status: 'open', cursor }), (e) => e instanceof ServerCallError && e.code === 'validation_failed');
  await assert.rejects(api.messages.list({ target: 'channel:walk', cursor }), (e) => e instanceof ServerCallError && e.code === 'validation_failed');
  const msgCursor = (await api.messages.list({ target: 'channel:walk', limit: 2 })).nextCursor!;
  await assert.rejects(api.messages.list({ target: 'channel:general', cursor: msgCursor }), (e) => e instanceof ServerCallError && e.code === 'validation_failed');
  // The genuine cursor still works, with a different limit too.
  assert.equal((await api.tasks.list({ limit: 3, cursor })).tasks.length, 3);
  for (const limit of [0, 101, 1.5, -1]) {
    await assert.rejects(api.tasks.list({ limit }), (e) => e instanceof ServerCallError && e.code === 'validation_failed', `limit ${limit}`);
  }
  assert.equal((await api.tasks.list({ limit: 100 })).tasks.length, 100);
});
