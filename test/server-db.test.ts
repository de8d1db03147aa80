// End-to-end: where `server start` takes its database from (--db, a 0600 --db-file, AGENTTEAM_DB) and how it creates a SQLite file (0600, folder 0700).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './harness.js';
import { startServerProc } from './postgres/server-proc.js';

const dir = mkdtempSync(join(tmpdir(), 'agentteam-srvdb-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const mode = (p: string) => statSync(p).mode & 0o777;

test('a new SQLite database is created 0600 in a 0700 folder, and its -wal/-shm follow the file', async () => {
  const db = join(dir, 'fresh', 'nested', 'team.db');
  const p = await startServerProc(['--db', `sqlite:${db}`, '--log-file', join(dir, 'fresh.log')], join(dir, 'fresh-home'), { AGENTTEAM_DB: '' });
  try {
    assert.equal(mode(join(dir, 'fresh')), 0o700);
    assert.equal(mode(join(dir, 'fresh', 'nested')), 0o700);
    for (const f of [db, `${db}-wal`, `${db}-shm`, `${db}.admin-token`]) assert.equal(mode(f), 0o600, f);
  } finally {
    await p.stop();
  }
});

test('the database URL comes from a 0600 --db-file or AGENTTEAM_DB; a password in argv is warned about without printing it', async () => {
  const file = join(dir, 'db.url');
  writeFileSync(file, `sqlite:${join(dir, 'from-file.db')}\n`, { mode: 0o600 });
  const a = await startServerProc(['--db-file', file, '--log-file', join(dir, 'a.log')], join(dir, 'a-home'), { AGENTTEAM_DB: '' });
  await a.stop();
  assert.ok(existsSync(join(dir, 'from-file.db')));
  const b = await startServerProc(['--log-file', join(dir, 'b.log')], join(dir, 'b-home'), { AGENTTEAM_DB: `sqlite:${join(dir, 'from-env.db')}` });
  await b.stop();
  assert.ok(existsSync(join(dir, 'from-env.db')));

  // A URL file others can read is refused (it holds a password), named, and not read.
  writeFileSync(join(dir, 'open.url'), 'postgres://u:fil3secret@127.0.0.1:1/x\n', { mode: 0o644 });
  const open = await cli(join(dir, 'c-home'), ['server', 'start', '--port', '0', '--db-file', join(dir, 'open.url')], { env: { AGENTTEAM_DB: '' } });
  assert.equal(open.code, 1, open.stderr);
  assert.match(open.stderr, /--db-file: refusing to use .*open\.url: it is group\/world accessible \(mode 644\)/);
  assert.ok(!open.stderr.includes('fil3secret'));
  assert.equal(mode(join(dir, 'open.url')), 0o644, 'never chmodded');

  const both = await cli(join(dir, 'c-home'), ['server', 'start', '--port', '0', '--db', 'sqlite:x.db', '--db-file', file]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--db or --db-file, not both/);
  const none = await cli(join(dir, 'c-home'), ['server', 'start', '--port', '0'], { env: { AGENTTEAM_DB: '' } });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /AGENTTEAM_DB=postgres:\/\/… in the environment, --db-file FILE/);

  // In argv: still accepted (it fails here only because nothing listens), with a warning that never shows the password.
  const argv = await cli(join(dir, 'c-home'), ['server', 'start', '--port', '0', '--db', 'postgres://u:s3cretpw@127.0.0.1:1/none'], { timeoutMs: 30_000 });
  assert.match(argv.stderr, /warning: --db carries a database password.*--db-file FILE \(mode 0600\) or the AGENTTEAM_DB environment variable/);
  assert.ok(!argv.stderr.includes('s3cretpw'), argv.stderr);
  const quiet = await cli(join(dir, 'c-home'), ['server', 'start', '--port', '0'], { env: { AGENTTEAM_DB: 'postgres://u:s3cretpw@127.0.0.1:1/none' }, timeoutMs: 30_000 });
  assert.doesNotMatch(quiet.stderr, /warning/);
  assert.ok(!quiet.stderr.includes('s3cretpw'), quiet.stderr);
  assert.ok(readFileSync(file, 'utf8').startsWith('sqlite:'));
});
