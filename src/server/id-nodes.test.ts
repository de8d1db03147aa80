// Tests id-node leases on a real database (SQLite file, or PostgreSQL under AGENTTEAM_TEST_DB) with a fake clock: distinct nodes, release and reuse above the high-water mark, takeover only from a long-silent process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../shared/clock.js';
import { HOLD_MS, IdNodeLease, NODE_REUSE_MS } from './id-nodes.js';
import { openStore } from './store/open.js';
import type { Store } from './store/types.js';
import { freshTestDb } from './test-helpers.js';

/** A lease as a server process holds it: its server_processes row (the heartbeat) first, as ServerProcess.register does. */
async function lease(store: Store, clock: FakeClock, bootId: string): Promise<IdNodeLease> {
  await store.run('INSERT INTO server_processes (boot_id, started_at, heartbeat_at) VALUES (?, ?, ?)', [bootId, clock.now(), clock.now()]);
  return new IdNodeLease(store, clock, bootId);
}
const beat = (store: Store, clock: FakeClock, bootId: string) => store.run('UPDATE server_processes SET heartbeat_at = ? WHERE boot_id = ?', [clock.now(), bootId]);

async function withStore(fn: (store: Store, clock: FakeClock) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-nodes-'));
  const clock = new FakeClock();
  const fresh = await freshTestDb(dir);
  const store = await openStore(fresh.db, { clock });
  try {
    await fn(store, clock);
  } finally {
    await store.close();
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('leases claimed at once get distinct nodes, smallest first, and their ids never meet', async () => {
  await withStore(async (store, clock) => {
    const leases = await Promise.all(Array.from({ length: 12 }, (_, i) => lease(store, clock, `bt_${i}`)));
    const nodes = await Promise.all(leases.map((l) => l.claim()));
    assert.deepEqual([...nodes].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const ids = leases.flatMap((l) => Array.from({ length: 50 }, () => l.ids.next('msg', clock.now())));
    assert.equal(new Set(ids).size, ids.length, 'one frozen millisecond, twelve holders, no collision');
  });
});

test('a released node goes to the next process, which issues above the old holder\'s high-water mark', async () => {
  await withStore(async (store, clock) => {
    const a = await lease(store, clock, 'bt_a');
    assert.equal(await a.claim(), 0);
    const first = Array.from({ length: 40 }, () => a.ids.next('tsk', clock.now())); // borrows a few ms ahead
    await a.release();
    const b = await lease(store, clock, 'bt_b');
    assert.equal(await b.claim(), 0, 'released at once, so the short node is reused');
    const next = b.ids.next('tsk', clock.now());
    assert.ok(next > first.at(-1)! && !first.includes(next), `${first.at(-1)} then ${next}`);
  });
});

test('a node is taken over only once its process has not beaten for NODE_REUSE_MS (or its row is gone)', async () => {
  await withStore(async (store, clock) => {
    const a = await lease(store, clock, 'bt_a');
    await a.claim();
    const b = await lease(store, clock, 'bt_b');
    assert.equal(await b.claim(), 1, 'a live holder keeps its node');
    clock.advance(NODE_REUSE_MS - 1);
    await beat(store, clock, 'bt_b');
    await b.confirm(clock.now());
    const c = await lease(store, clock, 'bt_c');
    assert.equal(await c.claim(), 2, 'a silent for just under NODE_REUSE_MS: not taken');
    clock.advance(1);
    const d = await lease(store, clock, 'bt_d');
    assert.equal(await d.claim(), 0, 'a silent for NODE_REUSE_MS: taken over; b, beating, keeps 1');
    await store.run("DELETE FROM server_processes WHERE boot_id = 'bt_c'");
    const e = await lease(store, clock, 'bt_e');
    assert.equal(await e.claim(), 2, "c's process row is gone: its node is free");
    const ids = [b, d, e].flatMap((l) => Array.from({ length: 30 }, () => l.ids.next('msg', clock.now())));
    assert.equal(new Set(ids).size, ids.length);
  });
});

test('a holder issues ids only within HOLD_MS of its last confirmed heartbeat; one paused past NODE_REUSE_MS claims a new node instead of meeting the taker', async () => {
  await withStore(async (store, clock) => {
    const a = await lease(store, clock, 'bt_a');
    assert.equal(await a.claim(), 0);
    const early = a.ids.next('msg', clock.now());
    clock.advance(HOLD_MS + 1);
    assert.throws(() => a.ids.next('msg', clock.now()), (e: unknown) => (e as { code?: string }).code === 'upstream_unavailable', 'unconfirmed: refused');
    await beat(store, clock, 'bt_a');
    await a.confirm(clock.now());
    assert.equal(a.held, 0, 'still its node');
    assert.ok(a.ids.next('msg', clock.now()) > early);
    // Paused: no heartbeat for NODE_REUSE_MS, and b takes node 0 over.
    clock.advance(NODE_REUSE_MS);
    const b = await lease(store, clock, 'bt_b');
    assert.equal(await b.claim(), 0);
    const theirs = Array.from({ length: 20 }, () => b.ids.next('msg', clock.now()));
    assert.throws(() => a.ids.next('msg', clock.now()), (e: unknown) => (e as { code?: string }).code === 'upstream_unavailable', 'resumed but unconfirmed: refused, not a colliding id');
    await beat(store, clock, 'bt_a');
    await a.confirm(clock.now());
    assert.equal(a.held, 1, 'its node was lost: a fresh claim');
    const mine = Array.from({ length: 20 }, () => a.ids.next('msg', clock.now()));
    assert.equal(new Set([...mine, ...theirs]).size, 40, 'same millisecond, distinct ids');
  });
});
