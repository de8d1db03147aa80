// Tests the private credential files: modes, atomic publication, no litter, symlink refusal, removal and the stale sweep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../shared/errors.js';
import { createAuthorizationDir, publishToken, removeAuthorizationDir, sweepStale, TOKEN_FILE_NAME } from './credential-file.js';
import { faultyFs, tempDir } from './testkit.js';

const mode = (p: string) => lstatSync(p).mode & 0o777;

test('publication creates a 0700 random dir under a 0700 root and a 0600 token file', async () => {
  const root = join(tempDir(), 'run', 'credentials');
  const dir = await createAuthorizationDir(root);
  await publishToken(dir, 'atx_secret1');
  assert.equal(mode(root), 0o700);
  assert.equal(mode(dir), 0o700);
  assert.equal(mode(join(dir, TOKEN_FILE_NAME)), 0o600);
  assert.equal(readFileSync(join(dir, TOKEN_FILE_NAME), 'utf8'), 'atx_secret1');
  assert.match(dir.slice(root.length + 1), /^[A-Za-z0-9_-]{20,}$/);
  const other = await createAuthorizationDir(root);
  assert.notEqual(other, dir);
});

test('republishing replaces the token atomically and leaves no temp litter', async () => {
  const dir = await createAuthorizationDir(join(tempDir(), 'c'));
  const inode = () => statSync(join(dir, TOKEN_FILE_NAME)).ino;
  await publishToken(dir, 'atx_one');
  const first = inode();
  await publishToken(dir, 'atx_two');
  assert.equal(readFileSync(join(dir, TOKEN_FILE_NAME), 'utf8'), 'atx_two');
  assert.notEqual(inode(), first, 'a rename installs a new file instead of rewriting in place');
  assert.deepEqual(readdirSync(dir), [TOKEN_FILE_NAME]);
  assert.equal(mode(join(dir, TOKEN_FILE_NAME)), 0o600);
});

test('the temp file is opened O_CREAT|O_EXCL|O_WRONLY|O_NOFOLLOW with mode 0600', async () => {
  const dir = await createAuthorizationDir(join(tempDir(), 'c'));
  const flags: number[] = [];
  const fs = faultyFs({});
  const open = fs.open;
  fs.open = (p, f, m) => (flags.push(f, m), open(p, f, m));
  await publishToken(dir, 'atx_x', fs);
  const want = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW;
  assert.deepEqual(flags, [want, 0o600]);
});

for (const op of ['open', 'rename', 'openDir'] as const) {
  test(`a failing ${op} keeps the previous token, leaves no litter and names no path`, async () => {
    const dir = await createAuthorizationDir(join(tempDir(), 'c'));
    await publishToken(dir, 'atx_old');
    const fs = faultyFs({ [op]: () => true }, 'ENOSPC');
    await assert.rejects(publishToken(dir, 'atx_new', fs), (e: unknown) => {
      assert.ok(e instanceof AppError);
      assert.match(e.message, /ENOSPC/);
      assert.ok(!e.message.includes(dir), 'error message must not carry the credential path');
      return true;
    });
    // openDir fails after the rename, so the new token is already in place; earlier failures keep the old one.
    assert.equal(readFileSync(join(dir, TOKEN_FILE_NAME), 'utf8'), op === 'openDir' ? 'atx_new' : 'atx_old');
    assert.deepEqual(readdirSync(dir), [TOKEN_FILE_NAME]);
  });
}

test('a failing write removes the half-written temp file', async () => {
  const dir = await createAuthorizationDir(join(tempDir(), 'c'));
  await publishToken(dir, 'atx_old');
  const fs = faultyFs({});
  const open = fs.open;
  fs.open = async (p, f, m) => {
    const h = await open(p, f, m);
    return { ...h, chmod: (x: number) => h.chmod(x), sync: () => h.sync(), close: () => h.close(), writeFile: async () => Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' })) };
  };
  await assert.rejects(publishToken(dir, 'atx_new', fs), /EIO/);
  assert.deepEqual(readdirSync(dir), [TOKEN_FILE_NAME]);
  assert.equal(readFileSync(join(dir, TOKEN_FILE_NAME), 'utf8'), 'atx_old');
});

test('symlinked credentials root or authorization dir is refused, never followed', async () => {
  const home = tempDir();
  const target = join(home, 'elsewhere');
  mkdirSync(target, { mode: 0o700 });
  symlinkSync(target, join(home, 'credentials'));
  await assert.rejects(createAuthorizationDir(join(home, 'credentials')), /not a real directory/);
  assert.deepEqual(readdirSync(target), []);

  const real = join(home, 'realdir');
  mkdirSync(real, { mode: 0o700 });
  const link = join(home, 'linkdir');
  symlinkSync(real, link);
  await assert.rejects(publishToken(link, 'atx_s'), /not a real directory/);
  assert.deepEqual(readdirSync(real), []);
});

test('a pre-existing wider mode on the root is tightened to 0700', async () => {
  const root = join(tempDir(), 'creds');
  mkdirSync(root, { mode: 0o755 });
  chmodSync(root, 0o755);
  await createAuthorizationDir(root);
  assert.equal(mode(root), 0o700);
});

test('removal deletes the token, temp litter and the dir; a missing dir is already removed', async () => {
  const dir = await createAuthorizationDir(join(tempDir(), 'c'));
  await publishToken(dir, 'atx_a');
  writeFileSync(join(dir, '.token.leftover.tmp'), 'x');
  await removeAuthorizationDir(dir);
  assert.equal(existsSync(dir), false);
  await removeAuthorizationDir(dir);
});

test('removal of a dir replaced by a symlink unlinks the link only', async () => {
  const home = tempDir();
  const outside = join(home, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'keep'), 'keep');
  symlinkSync(outside, join(home, 'auth'));
  await removeAuthorizationDir(join(home, 'auth'));
  assert.equal(existsSync(join(home, 'auth')), false);
  assert.equal(readFileSync(join(outside, 'keep'), 'utf8'), 'keep');
});

test('sweepStale removes every stale directory, never follows symlinks, and counts only directories', async () => {
  const home = tempDir();
  const root = join(home, 'credentials');
  const outside = join(home, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'precious'), 'p');
  for (const n of ['a', 'b', 'c']) {
    const dir = await createAuthorizationDir(root);
    await publishToken(dir, `atx_${n}`);
  }
  symlinkSync(outside, join(root, 'link'));
  assert.equal(await sweepStale(root), 3);
  assert.deepEqual(readdirSync(root), []);
  assert.equal(readFileSync(join(outside, 'precious'), 'utf8'), 'p');
  assert.equal(await sweepStale(root), 0);
  assert.equal(await sweepStale(join(home, 'missing')), 0);
});

test('sweepStale refuses a symlinked credentials dir', async () => {
  const home = tempDir();
  const outside = join(home, 'outside');
  mkdirSync(join(outside, 'victim'), { recursive: true });
  symlinkSync(outside, join(home, 'credentials'));
  await assert.rejects(sweepStale(join(home, 'credentials')), /not a real directory/);
  assert.equal(existsSync(join(outside, 'victim')), true);
});
