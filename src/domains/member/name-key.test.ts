// Tests when two member names read the same (nameKey), and that schema 28 applies over a database whose members already share names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../server/store/sqlite.js';
import {  } from '../../server/store/migrations.js';
import { claimName, nameKey, nameKeyDigest } from './name-key.js';
import { SCHEMA } from '../registry.js';

test('nameKey folds case, NFKC forms, width, invisible characters and spacing; distinct letters stay distinct', () => {
  const same: Array<[string, string]> = [
    ['Owner', 'oWNER'],
    ['Owner', '\uff2f\uff57\uff4e\uff45\uff52'],
    ['Zo\u00eb', 'Zoe\u0308'],
    ['fix', '\ufb01x'],
    ['Kay', '\u212aay'],
    ['Stra\u00dfe', 'STRASSE'],
    ['Ada Lovelace', ' Ada\u3000\u3000Lovelace\u200b '],
    ['a\u00adb', 'ab'],
    ['\u03a3\u03bf\u03c6\u03b9\u03b1', '\u03c3\u03bf\u03c6\u03b9\u03b1'],
  ];
  for (const [a, b] of same) assert.equal(nameKey(a), nameKey(b), `${a} / ${b}`);
  for (const [a, b] of [['Zoë', 'Zoe'], ['ops', 'ops2'], ['Ana', 'Anna']]) assert.notEqual(nameKey(a!), nameKey(b!), `${a} / ${b}`);
  assert.match(nameKeyDigest('\ufdfa'.repeat(100)), /^[A-Za-z0-9_-]{43}$/, 'a key many times its name stores in 43 characters');
});

test('schema 28 applies over members that already share a name (they stay as they are, unkeyed) and still block it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-namekey-'));
  try {
    const path = join(dir, 'old.db');
    const old = openSqliteStore(path, { migrations: SCHEMA.sqlite.filter((m) => m.version < 28) });
    for (const [id, name, kind] of [['mem_a', 'Ada', 'human'], ['mem_b', 'ada', 'human'], ['agt_c', 'ADA', 'agent']]) {
      await old.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at) VALUES (?, ?, ?, 'member', randomblob(32), 1)", [id!, name!, kind!]);
    }
    await old.close();
    const store = openSqliteStore(path, { migrations: SCHEMA.sqlite });
    try {
      const rows = await store.all<{ id: string; name: string; name_key: string | null }>('SELECT id, name, name_key FROM members ORDER BY id');
      assert.deepEqual(rows.map((r) => [r.id, r.name, r.name_key]), [['agt_c', 'ADA', null], ['mem_a', 'Ada', null], ['mem_b', 'ada', null]]);
      await assert.rejects(store.tx((sql) => claimName(sql, 'aDa')), (e: unknown) => (e as { code?: string }).code === 'conflict');
      await assert.rejects(store.tx((sql) => claimName(sql, 'ada', 'mem_b')), (e: unknown) => (e as { code?: string }).code === 'conflict', 'the other two still hold it');
      assert.equal((await store.tx((sql) => claimName(sql, 'Grace'))).key, nameKeyDigest('grace'));
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
