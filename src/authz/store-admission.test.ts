// Tests admission: 32 per authorization, 1024 in the store, the 512 dispatcher bound (with pre-publication activations), leases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../shared/errors.js';
import { faultyFs, makeStore, readToken, sampleInput, ticks } from './testkit.js';
import type { TokenInfo } from './types.js';

async function execInfo(store: ReturnType<typeof makeStore>['store'], n: number): Promise<TokenInfo> {
  const a = await store.activate(sampleInput(n));
  const r = store.authenticate(readToken(a.execTokenFile));
  assert.ok(r.ok);
  return r.info;
}

test('32 acquired requests per authorization; the 33rd is refused; release frees exactly one slot', async () => {
  const { store } = makeStore();
  const info = await execInfo(store, 1);
  const leases = Array.from({ length: 32 }, () => store.acquire(info));
  assert.ok(leases.every((l) => l !== null));
  assert.equal(store.acquire(info), null);
  assert.equal(store.stats().inFlight, 32);
  leases[0]!.release();
  leases[0]!.release();
  assert.equal(store.stats().inFlight, 31);
  const again = store.acquire(info);
  assert.ok(again);
  assert.equal(store.acquire(info), null, 'a double release does not free a second slot');
});

test('MCP and Exec requests of one authorization share its 32', async () => {
  const { store } = makeStore();
  const a = await store.activate(sampleInput());
  const m = store.authenticate(a.mcpToken);
  const x = store.authenticate(readToken(a.execTokenFile));
  assert.ok(m.ok && x.ok);
  for (let i = 0; i < 16; i++) assert.ok(store.acquire(m.info) && store.acquire(x.info));
  assert.equal(store.acquire(m.info), null);
  assert.equal(store.acquire(x.info), null);
});

test('1024 acquired requests in the store; the next is refused on any authorization', async () => {
  const { store } = makeStore();
  const infos: TokenInfo[] = [];
  for (let i = 0; i < 33; i++) infos.push(await execInfo(store, i));
  for (const info of infos.slice(0, 32)) for (let j = 0; j < 32; j++) assert.ok(store.acquire(info));
  assert.equal(store.stats().inFlight, 1024);
  assert.equal(store.acquire(infos[32]!), null, 'a fresh authorization is refused once the store holds 1024');
});

test('a lease needs the authorization the store issued: unknown or forged token info is refused', async () => {
  const { store } = makeStore();
  const info = await execInfo(store, 1);
  assert.equal(store.acquire({ ...info, authorization: { ...info.authorization } }), null);
  assert.equal(store.acquire({ ...info, authorization: { ...info.authorization, id: 'rta_nope' } }), null);
  assert.ok(store.acquire(info));
});

test('dispatcher admission: 512 authorizations, the 513th activation is rejected with a clear message', async () => {
  const { store } = makeStore();
  const ids: string[] = [];
  for (let i = 0; i < 512; i++) ids.push((await store.activate(sampleInput(i))).info.id);
  assert.equal(store.stats().authorizations, 512);
  await assert.rejects(store.activate(sampleInput(999)), (e: unknown) => {
    assert.ok(e instanceof AppError);
    assert.equal(e.code, 'admission_rejected');
    assert.match(e.message, /512/);
    return true;
  });
  await store.revoke(ids[0]!, 'exit');
  assert.ok(await store.activate(sampleInput(1000)));
});

test('pre-publication activations count toward the dispatcher bound', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const fs = faultyFs({});
  const rename = fs.rename;
  fs.rename = async (a, b) => (await gate, rename(a, b));
  const { store } = makeStore({ fs, maxLeases: 2 });
  const p1 = store.activate(sampleInput(1));
  const p2 = store.activate(sampleInput(2));
  await ticks(10);
  await assert.rejects(store.activate(sampleInput(3)), (e: unknown) => e instanceof AppError && e.code === 'admission_rejected');
  release();
  await Promise.all([p1, p2]);
  assert.equal(store.stats().authorizations, 2);
});

test('a revoked authorization admits nothing and its leases see the abort', async () => {
  const { store } = makeStore();
  const info = await execInfo(store, 1);
  const lease = store.acquire(info)!;
  let reason: unknown;
  lease.signal.addEventListener('abort', () => (reason = lease.signal.reason));
  const done = store.revoke(info.authorization.id, 'replacement');
  assert.equal(lease.live(), false);
  assert.match(String(reason), /revoked \(replacement\)/);
  assert.equal(store.acquire(info), null);
  lease.release();
  await done;
});

test('authenticate reports missing and unknown bearers only as diagnostic reasons', async () => {
  const { store } = makeStore();
  await store.activate(sampleInput());
  assert.deepEqual(store.authenticate(undefined), { ok: false, reason: 'missing' });
  assert.deepEqual(store.authenticate('atx_forged'), { ok: false, reason: 'unknown' });
  const other = makeStore().store;
  const b = await other.activate(sampleInput());
  assert.deepEqual(store.authenticate(b.mcpToken), { ok: false, reason: 'unknown' }, 'another boot (hash key) does not know it');
});
