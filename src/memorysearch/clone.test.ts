// Tests Memory clone creation: a private git repository per agent, a plain folder without git, no path escapes or symlinks.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cloneDir, ensureClone } from './clone.js';

test('the clone is a 0700 git repository owned by this uid, created once', () => {
  const root = join(mkdtempSync(join(tmpdir(), 'clone-')), 'memory');
  const a = ensureClone(root, 'agt_1');
  assert.deepEqual(a, { dir: join(root, 'agt_1'), git: true });
  assert.ok(existsSync(join(a.dir, '.git', 'HEAD')));
  assert.equal(statSync(a.dir).mode & 0o777, 0o700);
  assert.equal(statSync(root).mode & 0o777, 0o700);
  assert.equal(statSync(a.dir).uid, process.getuid!());
  assert.deepEqual(ensureClone(root, 'agt_1'), a);
});

test('without git the clone is a plain private folder, and says so', () => {
  const root = join(mkdtempSync(join(tmpdir(), 'clone-')), 'memory');
  const a = ensureClone(root, 'agt_2', 'no-such-git-binary-xyz');
  assert.equal(a.git, false);
  assert.equal(existsSync(join(a.dir, '.git')), false);
  assert.equal(statSync(a.dir).mode & 0o777, 0o700);
});

test('agent ids that are not plain names, and a symlink in place of the clone, are refused', () => {
  const root = join(mkdtempSync(join(tmpdir(), 'clone-')), 'memory');
  for (const bad of ['../x', 'a/b', '', '.', '..', 'x'.repeat(65)]) assert.throws(() => cloneDir(root, bad), /plain name/, bad);
  mkdirSync(root, { recursive: true });
  const elsewhere = mkdtempSync(join(tmpdir(), 'clone-else-'));
  symlinkSync(elsewhere, join(root, 'agt_3'));
  assert.throws(() => ensureClone(root, 'agt_3'), /refusing/);
});
