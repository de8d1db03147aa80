// Tests reading files inside a folder others write to (Memory clones, knowledge folders): no symlink (file or folder), FIFO, or oversize.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, linkSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSourceFile } from '../cli/kb-cmd.js';
import { readIndexed } from '../memorysearch/walk.js';
import { openedInside } from './read-inside.js';

test('a folder of the clone swapped for a symlink after its file was named is not read through', () => {
  const base = mkdtempSync(join(tmpdir(), 'memwalk-'));
  const root = join(base, 'clone');
  const other = join(base, 'other-agent');
  mkdirSync(join(root, 'notes'), { recursive: true });
  mkdirSync(other);
  writeFileSync(join(root, 'notes', 'a.md'), 'my own note\n');
  writeFileSync(join(other, 'a.md'), 'supersecret of another agent\n');
  writeFileSync(join(root, 'top.md'), 'top level\n');
  try {
    assert.equal(readIndexed(root, 'notes/a.md')?.text, 'my own note\n');
    assert.equal(readIndexed(root, 'top.md')?.text, 'top level\n');
    // The watcher or walk named notes/a.md; then the agent swaps the folder for a link to another clone.
    renameSync(join(root, 'notes'), join(root, 'moved'));
    symlinkSync(other, join(root, 'notes'));
    assert.equal(readIndexed(root, 'notes/a.md'), null);
    // Deeper: a real folder inside a symlinked one.
    mkdirSync(join(other, 'deep'));
    writeFileSync(join(other, 'deep', 'b.md'), 'supersecret deeper\n');
    assert.equal(readIndexed(root, 'notes/deep/b.md'), null);
    // The file itself as a symlink (O_NOFOLLOW) and the moved folder's own file, still readable at its new path.
    symlinkSync(join(other, 'a.md'), join(root, 'link.md'));
    assert.equal(readIndexed(root, 'link.md'), null);
    assert.equal(readIndexed(root, 'moved/a.md')?.text, 'my own note\n');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('a clone reached through a symlinked home is still read (only links inside the clone are refused)', () => {
  const base = mkdtempSync(join(tmpdir(), 'memwalk-'));
  mkdirSync(join(base, 'real', 'clone'), { recursive: true });
  symlinkSync(join(base, 'real'), join(base, 'home'));
  writeFileSync(join(base, 'real', 'clone', 'n.md'), 'fine\n');
  try {
    assert.equal(readIndexed(join(base, 'home', 'clone'), 'n.md')?.text, 'fine\n');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('without /proc (other systems) the folders on the way are checked after the open', () => {
  const base = mkdtempSync(join(tmpdir(), 'memwalk-'));
  const root = join(base, 'clone');
  const other = join(base, 'other');
  mkdirSync(join(root, 'd'), { recursive: true });
  mkdirSync(other);
  writeFileSync(join(root, 'd', 'a.md'), 'mine\n');
  writeFileSync(join(other, 'a.md'), 'theirs\n');
  const check = (rel: string) => {
    const fd = openSync(join(root, rel), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return openedInside(fd, root, rel, false);
    } finally {
      closeSync(fd);
    }
  };
  try {
    assert.equal(check('d/a.md'), true);
    renameSync(join(root, 'd'), join(root, 'e'));
    symlinkSync(other, join(root, 'd'));
    assert.equal(check('d/a.md'), false);
    assert.equal(check('e/a.md'), true);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('kb sync reads a walked file only if it is still a regular file inside the folder, within the size cap', () => {
  const base = mkdtempSync(join(tmpdir(), 'kbread-'));
  const root = join(base, 'docs');
  mkdirSync(join(root, 'guide'), { recursive: true });
  mkdirSync(join(base, 'ssh'));
  writeFileSync(join(root, 'guide', 'intro.md'), '# Intro\n');
  writeFileSync(join(base, 'ssh', 'intro.md'), 'PRIVATE KEY\n');
  try {
    assert.equal(readSourceFile(root, 'guide/intro.md'), '# Intro\n');
    renameSync(join(root, 'guide'), join(root, 'old'));
    symlinkSync(join(base, 'ssh'), join(root, 'guide'));
    assert.equal(readSourceFile(root, 'guide/intro.md'), null);
    writeFileSync(join(root, 'big.md'), 'x'.repeat(256 * 1024 + 1));
    assert.equal(readSourceFile(root, 'big.md'), null);
    writeFileSync(join(root, 'edge.md'), 'x'.repeat(256 * 1024));
    assert.equal(readSourceFile(root, 'edge.md')?.length, 256 * 1024);
    // A hard link to a file outside the folder (the home's owner.token, say) shows no outside path: refused.
    writeFileSync(join(base, 'owner.token'), 'ato_secret\n');
    linkSync(join(base, 'owner.token'), join(root, 'token.md'));
    assert.equal(readSourceFile(root, 'token.md'), null);
    assert.equal(readIndexed(root, 'token.md'), null);
    // A FIFO swapped in for a walked file answers null at once instead of blocking the sync on open or read.
    execFileSync('mkfifo', [join(root, 'pipe.md')]);
    assert.equal(readSourceFile(root, 'pipe.md'), null);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('given the real root the index armed on, the clone folder itself swapped for a symlink is not read through', () => {
  const base = mkdtempSync(join(tmpdir(), 'memwalk-'));
  const root = join(base, 'clone');
  const other = join(base, 'other');
  mkdirSync(root);
  mkdirSync(other);
  writeFileSync(join(root, 'a.md'), 'mine\n');
  writeFileSync(join(other, 'a.md'), 'supersecret theirs\n');
  try {
    assert.equal(readIndexed(root, 'a.md', root)?.text, 'mine\n');
    renameSync(root, join(base, 'moved'));
    symlinkSync(other, root);
    assert.equal(readIndexed(root, 'a.md', root), null);
    assert.equal(readIndexed(root, 'a.md')?.text, 'supersecret theirs\n', 'without it the link is followed (why the index passes it)');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
