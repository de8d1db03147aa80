// Tests the live memory index on real folders and SQLite files: locators, incremental freshness, watcher, unavailability, safety.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FakeClock, systemClock } from '../shared/clock.js';
import { MemoryIndex } from './index.js';

function fixture(opts: { watch?: boolean; clock?: FakeClock } = {}) {
  const base = mkdtempSync(join(tmpdir(), 'memidx-'));
  const root = join(base, 'clone');
  mkdirSync(root);
  const dbPath = join(base, 'index.db');
  const make = () => new MemoryIndex({ root, dbPath, clock: opts.clock ?? new FakeClock(), watch: opts.watch ?? false });
  return { base, root, dbPath, make, done: () => rmSync(base, { recursive: true, force: true }) };
}

/** Writes a file and moves its mtime forward so a same-size rewrite is still seen as changed. */
function put(root: string, rel: string, text: string, mtimeSec = Date.now() / 1000): void {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
  utimesSync(join(root, rel), mtimeSec, mtimeSec);
}

test('search returns locators: clone-relative path, the line range of the matching section, a score and a short snippet', async () => {
  const f = fixture();
  put(f.root, 'people/ana.md', '# Ana\n\n- 2026-01-02: owns billing\n\n## Hobbies\n\n- plays the cello on Fridays\n');
  put(f.root, 'notes.md', 'nothing relevant here\n');
  const idx = f.make();
  await idx.start();
  const out = idx.search('cello', 5);
  assert.ok(out.ok);
  assert.equal(out.hits.length, 1);
  const [h] = out.hits;
  assert.equal(h!.path, 'people/ana.md');
  assert.deepEqual([h!.startLine, h!.endLine], [5, 7]);
  assert.ok(h!.score > 0);
  assert.match(h!.snippet, /cello/);
  assert.ok(h!.snippet.length <= 160);
  // Every word is required first; when that finds nothing, any word matches.
  const any = idx.search('cello unicorn', 5);
  assert.ok(any.ok && any.hits.length === 1);
  const none = idx.search('unicorn', 5);
  assert.ok(none.ok && none.hits.length === 0);
  // Prefix search with a trailing *.
  const pre = idx.search('bill*', 5);
  assert.ok(pre.ok && pre.hits[0]?.path === 'people/ana.md' && pre.hits[0].startLine === 1);
  idx.close();
  f.done();
});

test('results are bounded by limit, best first', async () => {
  const f = fixture();
  for (let i = 0; i < 30; i++) put(f.root, `n${i}.md`, `topic alpha ${'alpha '.repeat(i % 5)}\n`);
  const idx = f.make();
  await idx.start();
  const out = idx.search('alpha', 7);
  assert.ok(out.ok);
  assert.equal(out.hits.length, 7);
  for (let i = 1; i < out.hits.length; i++) assert.ok(out.hits[i - 1]!.score >= out.hits[i]!.score);
  idx.close();
  f.done();
});

test('a scan re-reads only the files that changed and drops removed ones (no full rebuild); a reopened index re-reads nothing', async () => {
  const f = fixture();
  for (let i = 0; i < 50; i++) put(f.root, `f${i}.md`, `file number ${i} mentions kiwi\n`, 1_700_000_000);
  const idx = f.make();
  await idx.start();
  assert.equal(idx.reads, 50);
  put(f.root, 'f3.md', 'file three now mentions mango\n', 1_700_000_100);
  unlinkSync(join(f.root, 'f4.md'));
  await idx.scan();
  assert.equal(idx.reads, 51, 'only the changed file was read again');
  const mango = idx.search('mango', 5);
  assert.ok(mango.ok && mango.hits.length === 1 && mango.hits[0]!.path === 'f3.md');
  const kiwi = idx.search('kiwi', 100);
  assert.ok(kiwi.ok);
  assert.equal(kiwi.hits.length, 48, 'f3 no longer says kiwi and f4 is gone');
  idx.close();
  const again = f.make();
  await again.start();
  assert.equal(again.reads, 0, 'a restart reuses the database');
  assert.ok((again.search('mango', 5) as { ok: true; hits: unknown[] }).hits.length === 1);
  again.close();
  f.done();
});

test('the periodic scan (driven by the injected clock) picks up changes when there is no watcher', async () => {
  const clock = new FakeClock();
  const f = fixture({ clock });
  const idx = f.make();
  await idx.start();
  put(f.root, 'late.md', 'papaya arrives late\n');
  const seen = new Promise<string[]>((r) => idx.onIndexed(r));
  clock.advance(1000);
  assert.deepEqual(await seen, ['late.md']);
  const out = idx.search('papaya', 5);
  assert.ok(out.ok && out.hits.length === 1);
  idx.close();
  f.done();
});

test('with the watcher, an edit becomes searchable without a scan, and only that file is read', async () => {
  const f = fixture({ watch: true });
  put(f.root, 'a.md', 'apple\n');
  const idx = new MemoryIndex({ root: f.root, dbPath: f.dbPath, clock: systemClock, watch: true, scanEveryMs: 3_600_000 });
  await idx.start();
  const before = idx.reads;
  // The guard only keeps the event loop alive (the watcher and clock timers do not) and fails a lost event.
  let guard: NodeJS.Timeout | undefined;
  const seen = new Promise<void>((r, reject) => {
    guard = setTimeout(() => reject(new Error('the watcher never reported sub/b.md')), 20_000);
    const off = idx.onIndexed((paths) => {
      if (paths.includes('sub/b.md')) (off(), r());
    });
  });
  mkdirSync(join(f.root, 'sub'));
  writeFileSync(join(f.root, 'sub', 'b.md'), 'banana split\n');
  await seen.finally(() => clearTimeout(guard));
  const out = idx.search('banana', 5);
  assert.ok(out.ok && out.hits.length === 1 && out.hits[0]!.path === 'sub/b.md');
  assert.ok(idx.reads - before >= 1 && idx.reads - before <= 3, `read ${idx.reads - before} files for one change`);
  idx.close();
  f.done();
});

test('unavailable while building and when the clone is missing; available again once the clone appears', async () => {
  const f = fixture();
  put(f.root, 'x.md', 'quince\n');
  const idx = f.make();
  const built = idx.start();
  assert.deepEqual(idx.search('quince', 5), { ok: false, reason: 'building' });
  await built;
  assert.ok(idx.search('quince', 5).ok);
  idx.close();

  const g = fixture();
  rmSync(g.root, { recursive: true });
  const gone = g.make();
  await gone.start();
  assert.equal(gone.state, 'missing');
  assert.deepEqual(gone.search('quince', 5), { ok: false, reason: 'missing' });
  mkdirSync(g.root);
  put(g.root, 'y.md', 'quince again\n');
  await gone.scan();
  const out = gone.search('quince', 5);
  assert.ok(out.ok && out.hits.length === 1);
  gone.close();
  f.done();
  g.done();
});

test('a query without searchable words is reported as such, never run', async () => {
  const f = fixture();
  const idx = f.make();
  await idx.start();
  assert.deepEqual(idx.search('  *** ""  ', 5), { ok: false, reason: 'no_terms' });
  idx.close();
  f.done();
});

test('symlinks, dot-folders (.git) and non-Markdown files are never indexed; the database file is 0600', async () => {
  const f = fixture();
  const secret = join(f.base, 'secret.md');
  writeFileSync(secret, 'tokenvalue supersecret\n');
  symlinkSync(secret, join(f.root, 'link.md'));
  put(f.root, '.git/notes.md', 'supersecret in git\n');
  put(f.root, 'plain.txt', 'supersecret text\n');
  put(f.root, 'real.md', 'ordinary\n');
  const idx = f.make();
  await idx.start();
  const out = idx.search('supersecret', 10);
  assert.ok(out.ok);
  assert.deepEqual(out.hits, []);
  assert.equal(statSync(f.dbPath).mode & 0o777, 0o600);
  idx.close();
  f.done();
});

test('a database of another schema or a corrupt file is replaced by a fresh build', async () => {
  const f = fixture();
  put(f.root, 'z.md', 'zucchini\n');
  writeFileSync(f.dbPath, 'this is not a database');
  const idx = f.make();
  await idx.start();
  const out = idx.search('zucchini', 5);
  assert.ok(out.ok && out.hits.length === 1);
  idx.close();
  f.done();
});

test('a database that fails under a search is rebuilt: the call answers building, and the rebuilt index answers again', async () => {
  const f = fixture();
  put(f.root, 'r.md', 'rhubarb\n');
  const idx = f.make();
  await idx.start();
  // Break the live connection the way a lost or corrupted file would surface: the next query throws inside SQLite.
  (idx as unknown as { store: { close(): void } }).store.close();
  assert.deepEqual(idx.search('rhubarb', 5), { ok: false, reason: 'building' });
  assert.equal(idx.state, 'building');
  await idx.scan();
  const out = idx.search('rhubarb', 5);
  assert.ok(out.ok && out.hits.length === 1);
  idx.close();
  f.done();
});

test('paths longer than the bound are not indexed, so a page of locators always fits the result budget', async () => {
  const f = fixture();
  const long = `${'d'.repeat(200)}/${'e'.repeat(200)}/${'f'.repeat(120)}.md`;
  put(f.root, long, 'lychee\n');
  put(f.root, 'short.md', 'lychee\n');
  const idx = f.make();
  await idx.start();
  const out = idx.search('lychee', 5);
  assert.ok(out.ok);
  assert.deepEqual(out.hits.map((h) => h.path), ['short.md']);
  idx.close();
  f.done();
});

/** A watched index on the real clock whose scans never run by timer: only the watchers (and searches) keep it fresh. */
function watched(f: ReturnType<typeof fixture>) {
  return new MemoryIndex({ root: f.root, dbPath: f.dbPath, clock: systemClock, watch: true, scanEveryMs: 3_600_000, fallbackScanMs: 3_600_000 });
}

/** Searches until `want` holds for the outcome (bounded: fails after 10 s); returns the last outcome. */
async function until(idx: MemoryIndex, word: string, want: (o: ReturnType<MemoryIndex['search']>) => boolean) {
  for (let i = 0; i < 500; i++) {
    const o = idx.search(word, 5);
    if (want(o)) return o;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`search for ${word} never reached the expected state: ${JSON.stringify(idx.search(word, 5))}`);
}
const hitIn = (path: string) => (o: ReturnType<MemoryIndex['search']>) => o.ok && o.hits.some((h) => h.path === path);
const noHit = (o: ReturnType<MemoryIndex['search']>) => o.ok && o.hits.length === 0;

test('the clone removed and re-created: no hit from the removed files, and every new file (not only the first) is searchable', async () => {
  const f = fixture();
  put(f.root, 'a.md', 'apple pie\n');
  const idx = watched(f);
  await idx.start();
  assert.ok(hitIn('a.md')(idx.search('apple', 5)));
  rmSync(f.root, { recursive: true });
  // The search itself looks at the folder first: a removed folder answers `missing`, never its old files.
  assert.deepEqual(idx.search('apple', 5), { ok: false, reason: 'missing' });
  mkdirSync(f.root);
  put(f.root, 'b.md', 'banana bread\n');
  await until(idx, 'banana', hitIn('b.md'));
  assert.ok(noHit(idx.search('apple', 5)), 'a.md went with the old folder');
  put(f.root, 'c.md', 'cherry tart\n');
  await until(idx, 'cherry', hitIn('c.md'));
  mkdirSync(join(f.root, 'sub'));
  put(f.root, 'sub/d.md', 'damson jam\n');
  await until(idx, 'damson', hitIn('sub/d.md'));
  unlinkSync(join(f.root, 'b.md'));
  await until(idx, 'banana', noHit);
  rmSync(join(f.root, 'sub'), { recursive: true });
  await until(idx, 'damson', noHit);
  idx.close();
  f.done();
});

test('the clone renamed away and another folder renamed in: the index follows the path, not the moved folder', async () => {
  const f = fixture();
  put(f.root, 'a.md', 'apple pie\n');
  const idx = watched(f);
  await idx.start();
  const away = join(f.base, 'away');
  renameSync(f.root, away);
  assert.deepEqual(idx.search('apple', 5), { ok: false, reason: 'missing' });
  put(away, 'olive.md', 'olive oil\n'); // written in the moved folder: not the clone any more
  const next = join(f.base, 'next');
  put(next, 'plum.md', 'plum cake\n');
  renameSync(next, f.root);
  await until(idx, 'plum', hitIn('plum.md'));
  assert.ok(noHit(idx.search('apple', 5)));
  assert.ok(noHit(idx.search('olive', 5)));
  put(f.root, 'pear.md', 'pear cider\n');
  await until(idx, 'pear', hitIn('pear.md'));
  // Renamed back: the folder is the same inode as before, but what happened meanwhile is read again.
  renameSync(f.root, next);
  renameSync(away, f.root);
  await until(idx, 'olive', hitIn('olive.md'));
  assert.ok(noHit(idx.search('plum', 5)));
  idx.close();
  f.done();
});

test('a clone replaced by a symlink is refused (nothing behind the link is read); a real folder in its place is indexed again', async () => {
  const f = fixture();
  put(f.root, 'a.md', 'apple pie\n');
  const secret = join(f.base, 'elsewhere');
  put(secret, 'secret.md', 'supersecret words\n');
  const idx = watched(f);
  await idx.start();
  rmSync(f.root, { recursive: true });
  symlinkSync(secret, f.root);
  assert.deepEqual(idx.search('supersecret', 5), { ok: false, reason: 'refused' });
  assert.deepEqual(idx.search('apple', 5), { ok: false, reason: 'refused' });
  await idx.scan();
  assert.equal(idx.state, 'refused');
  assert.deepEqual(idx.search('supersecret', 5), { ok: false, reason: 'refused' });
  unlinkSync(f.root);
  put(f.root, 'fig.md', 'fig roll\n');
  await until(idx, 'fig', hitIn('fig.md'));
  assert.ok(noHit(idx.search('supersecret', 5)));
  assert.ok(noHit(idx.search('apple', 5)));
  idx.close();
  // A clone that is a symlink when the index starts is refused too.
  const g = fixture();
  rmSync(g.root, { recursive: true });
  symlinkSync(secret, g.root);
  const at = g.make();
  await at.start();
  assert.equal(at.state, 'refused');
  assert.deepEqual(at.search('supersecret', 5), { ok: false, reason: 'refused' });
  at.close();
  f.done();
  g.done();
});

/** Resolves when the index reports `rel` (re)indexed or removed, without any search; fails after 10 s. */
function reported(idx: MemoryIndex, rel: string): Promise<void> {
  let guard: NodeJS.Timeout | undefined;
  return new Promise<void>((r, reject) => {
    guard = setTimeout(() => reject(new Error(`the index never reported ${rel}`)), 10_000);
    const off = idx.onIndexed((paths) => {
      if (paths.includes(rel)) (off(), r());
    });
  }).finally(() => clearTimeout(guard));
}

test('removed and made again in one go (often the same inode): the watchers alone pick up the first and the next files', async () => {
  const f = fixture();
  put(f.root, 'a.md', 'apple pie\n');
  const idx = watched(f);
  await idx.start();
  for (let round = 0; round < 3; round++) {
    rmSync(f.root, { recursive: true });
    mkdirSync(f.root);
    let seen = reported(idx, `first${round}.md`);
    writeFileSync(join(f.root, `first${round}.md`), `first ${round}\n`);
    await seen;
    seen = reported(idx, `next${round}.md`);
    writeFileSync(join(f.root, `next${round}.md`), `next ${round}\n`);
    await seen;
  }
  const out = idx.search('next', 5);
  assert.ok(out.ok);
  assert.deepEqual(out.hits.map((h) => h.path), ['next2.md']);
  assert.ok(noHit(idx.search('apple', 5)));
  idx.close();
  f.done();
});
