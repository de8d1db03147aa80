// End-to-end: a real runtime launched through the daemon edits its Memory clone and finds the edit with memory_search over MCP.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDaemon } from './harness.js';

const d = new TestDaemon();
const FIXTURE = join(import.meta.dirname, 'fixtures', 'memory-runtime.mjs');
const root = join(import.meta.dirname, '..');
let alice = { id: '', name: '' };
let bob = { id: '', name: '' };

before(async () => {
  await d.start();
  alice = await d.addAgent('alice');
  bob = await d.addAgent('bob');
});
after(() => d.dispose());

function result(stdout: string): any {
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT'));
  assert.ok(line, stdout);
  return JSON.parse(line.slice(6));
}

test("a runtime writes a memory file and finds it with memory_search; it never sees another agent's memory", async () => {
  const b = await d.run(['runtime', 'start', '--agent', 'bob', '--', process.execPath, FIXTURE, 'pomegranate'], { cwd: root });
  assert.equal(b.code, 0, b.stderr + b.stdout);
  const bobOut = result(b.stdout);
  assert.equal(bobOut.found?.path, 'notes/pomegranate.md');

  const a = await d.run(['runtime', 'start', '--agent', 'alice', '--', process.execPath, FIXTURE, 'tangerine', 'pomegranate'], { cwd: root });
  assert.equal(a.code, 0, a.stderr + a.stdout);
  const out = result(a.stdout);
  // The clone is the daemon-created, private git repository under the home.
  assert.equal(out.dir, join(d.home, 'memory', alice.id));
  assert.equal(statSync(out.dir).mode & 0o777, 0o700);
  assert.equal(statSync(out.dir).uid, process.getuid!());
  assert.ok(existsSync(join(out.dir, '.git')), 'the clone is a git repository');
  assert.deepEqual({ path: out.found.path, lines: out.found.lines }, { path: 'notes/tangerine.md', lines: '1-3' });
  assert.equal(typeof out.found.score, 'number');
  assert.match(out.found.snippet, /tangerine/);
  assert.deepEqual(out.otherHits, [], "bob's word is not in alice's memory");
  // The index lives in its own private database under the home.
  assert.equal(statSync(join(d.home, 'memory-index', `${alice.id}.db`)).mode & 0o777, 0o600);
  assert.notEqual(bob.id, alice.id);
});

test('an interactive runtime gets the memory-maintenance skill in its own skill folder; a command runtime gets none', async () => {
  const wd = mkdtempSync(join(tmpdir(), 'agentteam-skill-'));
  const r = await d.run(['runtime', 'start', '--agent', 'alice', '--runtime', 'claude', '--workdir', wd, '--', 'sh', '-c', 'true']);
  assert.equal(r.code, 0, r.stderr);
  const skill = readFileSync(join(wd, '.claude', 'skills', 'memory-maintenance', 'SKILL.md'), 'utf8');
  assert.match(skill, /^---\nname: memory-maintenance\ndescription: /);
  const wd2 = mkdtempSync(join(tmpdir(), 'agentteam-skill-'));
  const c = await d.run(['runtime', 'start', '--agent', 'alice', '--workdir', wd2, '--', 'sh', '-c', 'true']);
  assert.equal(c.code, 0, c.stderr);
  assert.equal(existsSync(join(wd2, '.claude')), false);
});

test('the Memory folder removed, re-created, renamed and symlinked: every change is found, deletions never hit, the link is refused by name', async () => {
  const r = await d.run(['runtime', 'start', '--agent', 'bob', '--', process.execPath, join(import.meta.dirname, 'fixtures', 'memory-folder.mjs')], { cwd: root });
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const out = result(r.stdout);
  for (const [step, s] of Object.entries(out.steps)) assert.deepEqual(s, { ok: true }, step);
  assert.equal(out.linked.code, 'index_unavailable');
  assert.match(out.linked.message, /symlink/);
  assert.equal(out.linked.hits, undefined);
});
