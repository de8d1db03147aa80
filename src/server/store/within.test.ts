// Tests passing a transaction on explicitly (within) with ambient joining off, as the server runs, and the statement cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../shared/clock.js';
import { IdempotencyReceipts, requestHash } from '../idempotency.js';
import { openStore } from './open.js';
import type { Sql, Store } from './types.js';
import { SCHEMA } from '../../domains/registry.js';

async function withStore(fn: (store: Store) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-within-'));
  const store = await openStore(`sqlite:${join(dir, 'server.db')}`, { schema: SCHEMA }); // ambient off, like startServer
  try {
    await fn(store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const value = async (s: Pick<Sql, 'get'>, key: string) => (await s.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [key]))?.value;

test('within(sql) runs on the transaction; its tx is a savepoint; an outside call waits for the commit', async () => {
  await withStore(async (store) => {
    let outsideSaw: string | undefined = 'not yet';
    let outside: Promise<void> | undefined;
    await assert.rejects(
      store.tx(async (sql) => {
        const view = store.within(sql);
        await view.run("INSERT INTO meta (key, value) VALUES ('outer', '1')");
        // Not in the transaction's flow (ambient is off): it queues and must not see uncommitted rows.
        outside = store.get<{ value: string }>("SELECT value FROM meta WHERE key = 'outer'").then((r) => void (outsideSaw = r?.value));
        await assert.rejects(
          view.tx(async (inner) => {
            await inner.run("INSERT INTO meta (key, value) VALUES ('inner', '1')");
            throw new Error('inner fails');
          }),
          /inner fails/,
        );
        assert.equal(await value(view, 'inner'), undefined, 'savepoint rolled back');
        assert.equal(await value(view, 'outer'), '1');
        await view.tx((inner) => inner.run("INSERT INTO meta (key, value) VALUES ('kept-inner', '1')"));
        assert.equal(outsideSaw, 'not yet', 'the outside read is still queued');
        throw new Error('outer fails');
      }),
      /outer fails/,
    );
    await outside;
    assert.equal(outsideSaw, undefined, 'the outside read ran after the rollback');
    assert.equal(await value(store, 'kept-inner'), undefined, 'a released savepoint rolls back with its transaction');
  });
});

test('within() refuses anything but a live transaction handle of the same store', async () => {
  await withStore(async (store) => {
    await withStore(async (other) => {
      let ended: Sql | undefined;
      await store.tx(async (sql) => {
        ended = sql;
        assert.throws(() => other.within(sql), /live transaction handle/);
      });
      assert.throws(() => store.within(ended!), /live transaction handle/);
      assert.throws(() => store.within(store), /live transaction handle/);
    });
  });
});

test('runClaimed: the mutation and its receipt commit together, or neither does', async () => {
  await withStore(async (store) => {
    await store.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at) VALUES ('m1', 'M', 'agent', 'member', x'01', 0)");
    const r = new IdempotencyReceipts(store, new FakeClock());
    const h = requestHash('POST', '/x', {});
    const first = await r.begin('m1', 'k', h);
    assert.equal(first.kind, 'new');
    await assert.rejects(
      r.runClaimed('m1', 'k', (first as { claim: string }).claim, async (sql) => {
        await store.within(sql).run("INSERT INTO meta (key, value) VALUES ('written', '1')");
        throw new Error('handler fails');
      }),
      /handler fails/,
    );
    assert.equal(await value(store, 'written'), undefined, 'the failed mutation was rolled back');
    const again = await r.begin('m1', 'k', h);
    assert.equal(again.kind, 'new', 'the key was released');
    const reply = await r.runClaimed('m1', 'k', (again as { claim: string }).claim, async (sql) => {
      await store.within(sql).tx((inner) => inner.run("INSERT INTO meta (key, value) VALUES ('written', '2')"));
      return { status: 200, body: '{"ok":true}' };
    });
    assert.equal(reply.status, 200);
    assert.equal(await value(store, 'written'), '2');
    assert.deepEqual(await r.begin('m1', 'k', h), { kind: 'replay', status: 200, body: '{"ok":true}' });
  });
});

test('cached statements stay correct across many distinct queries (past the cache bound) and repeated use', async () => {
  await withStore(async (store) => {
    await store.tx(async (sql) => {
      for (let i = 0; i < 300; i++) await sql.run(`INSERT INTO meta (key, value) VALUES ('k${i}', ?)`, [String(i * 7)]);
    });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 300; i += 1) assert.equal(await value(store, `k${i}`), String(i * 7));
      for (let i = 0; i < 300; i += 37) assert.equal((await store.get<{ v: string }>(`SELECT value AS v FROM meta WHERE key = 'k${i}'`))?.v, String(i * 7));
    }
    assert.equal(await store.run("UPDATE meta SET value = 'x' WHERE key LIKE 'k1%'"), 111);
    assert.equal(await store.run("UPDATE meta SET value = 'x' WHERE key LIKE 'k1%'"), 111);
  });
});
