// End-to-end: the owner adds and syncs folder sources with the real CLI; a `command` agent answering a Human in #general
// calls kb_search and kb_fetch over MCP and sees exactly the knowledge #general may read.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDaemon, cliJson } from './harness.js';
import { addTurnAgent, messages, post, waitFor } from './turns-kit.js';

const d = new TestDaemon();
const dir = mkdtempSync(join(tmpdir(), 'agentteam-kb-'));
const general = join(dir, 'handbook');
const eng = join(dir, 'eng');

before(async () => {
  const r = await d.run(['daemon', 'start']);
  assert.equal(r.code, 0, r.stderr);
  d.pid = JSON.parse(r.stdout).pid;
  mkdirSync(join(general, 'ops'), { recursive: true });
  mkdirSync(eng);
  writeFileSync(join(general, 'ops', 'deploy.md'), '# Deploy guide\nShip with the blue-green switch.\n## Rollback\nFlip the switch back.');
  writeFileSync(join(general, 'faq.txt'), 'General questions and answers.');
  writeFileSync(join(eng, 'plan.md'), '# Eng plan\nThe switch migration is secret.');
});
after(async () => {
  await d.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test('kb add-source, sync (incremental), ls; an agent answering #general finds only #general knowledge', async () => {
  const a = await d.run(['kb', 'add-source', general, '--scope', 'channel:general']);
  assert.equal(a.code, 0, a.stderr);
  assert.deepEqual(cliJson(a).scopes, ['channel:general']);
  assert.equal((await d.run(['kb', 'add-source', eng, '--scope', 'channel:eng'])).code, 0);
  assert.notEqual((await d.run(['kb', 'add-source', join(dir, 'missing'), '--scope', 'workspace'])).code, 0);
  const s1 = cliJson(await d.run(['kb', 'sync'])) as { source: string; sent: number; unchanged: number; removed: number }[];
  assert.deepEqual(s1.map((x) => [x.sent, x.unchanged, x.removed]), [[2, 0, 0], [1, 0, 0]]);
  utimesSync(join(general, 'faq.txt'), new Date(), new Date(Date.now() + 5000));
  rmSync(join(general, 'ops', 'deploy.md'));
  writeFileSync(join(general, 'ops', 'deploy.md'), '# Deploy guide\nShip with the blue-green switch.\n## Rollback\nFlip the switch back, then page on-call.');
  const s2 = cliJson(await d.run(['kb', 'sync'])) as { sent: number; unchanged: number }[];
  assert.deepEqual(s2.map((x) => [x.sent, x.unchanged]), [[1, 1], [0, 1]], 'touched-but-same file is unchanged; edited file is sent');
  const ls = cliJson(await d.run(['kb', 'ls'])) as { name: string; documents: number; syncedAt: string | null }[];
  assert.deepEqual(ls.map((x) => [x.name, x.documents]), [[general, 2], [eng, 1]]);
  assert.ok(ls.every((x) => x.syncedAt));

  await addTurnAgent(d, 'kiki', join(dir, 'kiki.log'), 'kb', 'switch');
  const m = await post(d, 'channel:general', '@kiki how do we deploy?');
  const reply = await waitFor('the kb reply', async () => (await messages(d, 'channel:general')).find((x) => x.content.startsWith('kb ')));
  const out = JSON.parse(reply.content.slice(3)) as { titles: string[]; heading?: string; error?: string };
  assert.equal(out.error, undefined, reply.content);
  assert.ok(out.titles.length >= 1 && out.titles.every((t) => t === 'Deploy guide'), `only #general sources: ${reply.content}`);
  assert.match(out.heading ?? '', /Deploy guide|Rollback/);
  assert.ok(m.id);
});

test('kb sync walks the server listing page by page: 230 files (pages of 100) sync once, and a vanished file on the last page is removed', async () => {
  const many = join(dir, 'many');
  mkdirSync(many);
  for (let i = 0; i < 230; i++) writeFileSync(join(many, `n${String(i).padStart(3, '0')}.md`), `# Note ${i}\nbody ${i}`);
  assert.equal((await d.run(['kb', 'add-source', many, '--scope', 'workspace'])).code, 0);
  const first = (cliJson(await d.run(['kb', 'sync'])) as { source: string; sent: number; removed: number }[]).find((x) => x.source === many)!;
  assert.deepEqual([first.sent, first.removed], [230, 0]);
  rmSync(join(many, 'n229.md'));
  const again = (cliJson(await d.run(['kb', 'sync'])) as { source: string; sent: number; unchanged: number; removed: number }[]).find((x) => x.source === many)!;
  assert.deepEqual([again.sent, again.unchanged, again.removed], [0, 229, 1]);
  const ls = (cliJson(await d.run(['kb', 'ls'])) as { name: string; documents: number }[]).find((x) => x.name === many)!;
  assert.equal(ls.documents, 229);
});

test('kb sync never uploads a hard link to a file outside the folder: skipped with its reason, and its earlier version removed', async () => {
  const docs = join(dir, 'repo-docs');
  mkdirSync(docs);
  writeFileSync(join(docs, 'notes.md'), '# Notes\nordinary notes');
  writeFileSync(join(docs, 'keep.md'), '# Keep\nstays');
  assert.equal((await d.run(['kb', 'add-source', docs, '--scope', 'workspace'])).code, 0);
  const first = (cliJson(await d.run(['kb', 'sync'])) as { source: string; sent: number }[]).find((x) => x.source === docs)!;
  assert.equal(first.sent, 2);
  // An agent editing the repository swaps notes.md for a hard link to a private file (the home's token, say).
  const secret = join(dir, 'private.token');
  writeFileSync(secret, 'ato_supersecret_value');
  rmSync(join(docs, 'notes.md'));
  linkSync(secret, join(docs, 'notes.md'));
  type Report = { source: string; sent: number; unchanged: number; removed: number; skipped: number; skippedFiles?: { path: string; why: string }[] };
  const again = (cliJson(await d.run(['kb', 'sync'])) as Report[]).find((x) => x.source === docs)!;
  assert.deepEqual([again.sent, again.unchanged, again.removed, again.skipped], [0, 1, 1, 1]);
  assert.equal(again.skippedFiles?.[0]?.path, 'notes.md');
  assert.match(again.skippedFiles![0]!.why, /hard link/);
  const ls = (cliJson(await d.run(['kb', 'ls'])) as { name: string; documents: number }[]).find((x) => x.name === docs)!;
  assert.equal(ls.documents, 1, 'the earlier notes.md is no longer searchable either');
});
