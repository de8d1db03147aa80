// Tests that no bearer secret or credential path reaches the daemon log across the whole credential lifecycle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { HOUR, faultyFs, makeStore, readToken, sampleInput } from './testkit.js';

test('the log never contains a token, the token file path or the credentials dir', async () => {
  let failRename = false;
  let failRmdir = false;
  const kit = makeStore({
    fs: faultyFs({ rename: () => failRename, rmdir: () => failRmdir }, 'EIO'),
    cleanupBackoff: { baseMs: 1_000, maxMs: 1_000 },
  });
  const { store, clock } = kit;
  const secrets: string[] = [];
  const paths: string[] = [kit.credentialsDir];

  const a = await store.activate(sampleInput(1));
  secrets.push(a.mcpToken, readToken(a.execTokenFile));
  paths.push(a.execTokenFile, basename(dirname(a.execTokenFile)));
  clock.advance(0.8 * 12 * HOUR);
  await store.whenIdle();
  secrets.push(readToken(a.execTokenFile));
  failRename = true;
  clock.advance(0.8 * 12 * HOUR);
  await store.whenIdle();
  await assert.rejects(store.activate(sampleInput(2)));
  failRename = false;
  clock.advance(5 * 60_000);
  await store.whenIdle();
  secrets.push(readToken(a.execTokenFile));
  assert.equal(new Set(secrets).size, 4);

  store.authenticate(secrets[0]);
  failRmdir = true;
  await store.revoke(a.info.id, 'exit');
  failRmdir = false;
  clock.advance(1_000);
  await store.whenIdle();
  assert.equal(store.stats().cleanupDebt, 0);

  const log = readFileSync(kit.logFile, 'utf8');
  for (const m of ['runtime authorization active', 'credential generation renewed', 'credential renewal failed', 'runtime authorization revoked', 'credential cleanup failed', 'runtime authorization cleaned up']) {
    assert.ok(log.includes(m), `log has "${m}"`);
  }
  for (const s of secrets) {
    assert.ok(!log.includes(s), 'no bearer secret in the log');
    assert.ok(!log.includes(s.slice(4, 20)), 'no fragment of a bearer secret in the log');
  }
  for (const p of paths) assert.ok(!log.includes(p), 'no credential path in the log');
  assert.ok(log.includes(a.info.id), 'authorization ids are safe to log and are logged');
});
