// Tests kb_search and kb_fetch through callTool against the real server: the binding comes from the turn, every outer failure stage is produced for real.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { CurrentTurn } from '../../sessions/metadata.js';
import { RESULT_BUDGET_BYTES, resultBytes } from '../../wire/mcp/resultbudget/budget.js';
import { createAgentteamHandler } from './handler.js';
import { startToolsFixture, structured, testToolDeps, type ToolsFixture } from './testkit.js';
import { serverClient } from '../../domains/registry.js';

let fx: ToolsFixture;
let stopped = false;
let turn: CurrentTurn;
const h = createAgentteamHandler(testToolDeps());
const call = (name: string, args: unknown, t: CurrentTurn | null = turn) => h.callTool(t ? { ...fx.ctx(), turn: t } : fx.ctx(), fx.agentId, name, args);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

before(async () => {
  fx = await startToolsFixture();
  const msg = await fx.srv.owner.messages.send({ target: 'channel:general', content: 'how do we release?' });
  turn = { turnId: 'trn_1', target: 'channel:general', targetType: 'channel', messageId: msg.id, authorKind: 'human' };
  const src = await fx.srv.owner.knowledge.createSource({ name: 'handbook', kind: 'folder', scopes: ['channel:general'] });
  const big = Array.from({ length: 30 }, (_, i) => `## Step ${i}\n${'release train notes '.repeat(400)}`).join('\n');
  for (const [path, content] of [['release.md', '# Release\nTag, then run the release train.'], ['big.md', big]] as const) {
    await fx.srv.owner.knowledge.putDocument({ sourceId: src.id, path, hash: sha(content), mtime: 1, content });
  }
});
after(async () => {
  if (!stopped) await fx.stop();
});

test('kb_search and kb_fetch answer a Human turn with the sources its target may read, section by section within the budget', async () => {
  const hits = structured(await call('kb_search', { query: 'release train', limit: 3 })).hits as { documentId: string; title: string }[];
  assert.ok(hits.length >= 1 && hits.length <= 3);
  const doc = hits.find((x) => x.title === 'Step 0') ?? hits[0]!;
  const big = (await fx.srv.owner.knowledge.documents({ sourceId: (await fx.srv.owner.knowledge.listSources()).sources[0]!.id })).documents.find((d) => d.path === 'big.md')!;
  let section: number | undefined = 0;
  let pages = 0;
  while (section !== undefined) {
    const r = await call('kb_fetch', { documentId: big.id, section });
    assert.ok(!r.isError && resultBytes(r) <= RESULT_BUDGET_BYTES);
    section = structured(r).nextSection;
    pages++;
  }
  assert.ok(pages >= 15, `30 sections of ~8 kB took ${pages} pages`);
  assert.ok(doc.documentId);
  // The projection: documentId and section (what kb_fetch takes) and the reader's text; no score, no empty strings.
  for (const h of hits as unknown as Record<string, unknown>[]) {
    assert.deepEqual(Object.keys(h).filter((k) => !['title', 'heading'].includes(k)), ['documentId', 'section', 'snippet']);
    assert.ok(Object.values(h).every((v) => v !== '' && v !== null));
  }
  // A follow-up from the hit alone: kb_fetch at the hit's documentId and section.
  const first = hits[0] as unknown as { documentId: string; section: number };
  const fetched = structured(await call('kb_fetch', { documentId: first.documentId, section: first.section }));
  assert.deepEqual(Object.keys(fetched).sort(), fetched.nextSection === undefined ? ['sections'] : ['nextSection', 'sections']);
  assert.equal(fetched.sections[0].section, first.section);
  assert.ok(fetched.sections.length >= 1 && fetched.sections.every((s: Record<string, unknown>) => typeof s.text === 'string' && s.heading !== ''));
});

test('stage route: the AgentTeam server the daemon reaches has no knowledge route', async () => {
  // The real server answers its own 404 "no such route": the daemon's server base path points at no AgentTeam route.
  const skewed = serverClient({ baseUrl: `${fx.srv.server.url}/v0` });
  try {
    for (const [name, args] of [['kb_search', { query: 'release' }], ['kb_fetch', { documentId: 'kbd_x' }]] as const) {
      const s = structured(await h.callTool({ ...fx.ctx(), api: skewed.as(fx.agentCredential), turn }, fx.agentId, name, args));
      assert.deepEqual([s.stage, s.code], ['route', 'not_found'], name);
    }
  } finally {
    skewed.close();
  }
});

test('stage target_scope_resolution: no turn in session metadata, a turn started by an agent, a message that is not in the target', async () => {
  const none = structured(await call('kb_search', { query: 'release' }, null));
  assert.deepEqual([none.stage, none.code], ['target_scope_resolution', 'denied']);
  const a = structured(await call('kb_search', { query: 'release' }, { ...turn, authorKind: 'agent' }));
  assert.deepEqual([a.stage, a.code], ['target_scope_resolution', 'denied']);
  const other = await fx.srv.owner.messages.send({ target: `dm:${(await fx.srv.owner.channels.openDm({ memberIds: [fx.agentId] })).id}`, content: 'elsewhere' });
  const b = structured(await call('kb_fetch', { documentId: 'kbd_x' }, { ...turn, messageId: other.id }));
  assert.deepEqual([b.stage, b.code], ['target_scope_resolution', 'denied']);
});

test('stage request_validation: a query with no words (server), a section past the end', async () => {
  const s = structured(await call('kb_search', { query: '"()*:^' }));
  assert.deepEqual([s.stage, s.code], ['request_validation', 'validation_failed']);
  const src = (await fx.srv.owner.knowledge.listSources()).sources[0]!.id;
  const big = (await fx.srv.owner.knowledge.documents({ sourceId: src })).documents.find((d) => d.path === 'big.md')!;
  const p = structured(await call('kb_fetch', { documentId: big.id, section: 30 }));
  assert.deepEqual([p.stage, p.code], ['request_validation', 'validation_failed']);
});

test('worst-case characters: every kb_fetch page and a 20-hit kb_search stay within the 64 KiB result budget', async () => {
  const src = await fx.srv.owner.knowledge.createSource({ name: 'nasty', kind: 'upload', scopes: ['workspace'] });
  // Quotes and control characters are 2 and 6 bytes in JSON and double again in the mirrored text content.
  const heading = `nasty ${'"\u0001'.repeat(300)}`;
  const body = `nasty ${'"\\\u0001'.repeat(3000)}`;
  const doc = Array.from({ length: 6 }, () => `# ${heading}\n${body}`).join('\n');
  let put = { documentId: '', sections: 0 };
  for (let i = 0; i < 25; i++) put = await fx.srv.owner.knowledge.putDocument({ sourceId: src.id, path: `n${i}.md`, hash: sha(`${i}${doc}`), mtime: 1, content: `${i}\n${doc}` });
  const id = put.documentId;
  const s = await call('kb_search', { query: 'nasty', limit: 20 });
  assert.ok(!s.isError && resultBytes(s) <= RESULT_BUDGET_BYTES, `${resultBytes(s)} bytes`);
  assert.ok(structured(s).hits.length >= 1);
  let section: number | undefined = 0;
  let seen = 0;
  while (section !== undefined) {
    const r = await call('kb_fetch', { documentId: id, section });
    assert.ok(!r.isError && resultBytes(r) <= RESULT_BUDGET_BYTES, `${resultBytes(r)} bytes`);
    seen += structured(r).sections.length;
    section = structured(r).nextSection;
  }
  assert.equal(seen, put.sections, 'the walk by nextSection reads every section once');
});

test('tampered arguments: a negative or huge section, an off-grammar documentId, arguments that try to set the binding', async () => {
  assert.equal(structured(await call('kb_fetch', { documentId: 'kbd_x', section: -1 })).code, 'invalid_input');
  const huge = structured(await call('kb_fetch', { documentId: 'kbd_x', section: 1e9 }));
  assert.deepEqual([huge.stage, huge.code], ['request_validation', 'validation_failed']);
  const bad = structured(await call('kb_fetch', { documentId: '../../kbd_x' }));
  assert.deepEqual([bad.stage, bad.code], ['request_validation', 'validation_failed']);
  // Security invariant under test: the binding comes only from session metadata, never from arguments.
  for (const extra of [{ target: 'channel:eng' }, { messageId: 'msg_x' }, { serverId: 'srv_x' }]) {
    assert.equal(structured(await call('kb_search', { query: 'release', ...extra })).code, 'invalid_input');
  }
});

test('stage upstream: the KB owner has no such document, and the server is down', async () => {
  const s = structured(await call('kb_fetch', { documentId: 'kbd_missing' }));
  assert.deepEqual([s.stage, s.code], ['upstream', 'not_found']);
  await fx.stop();
  stopped = true;
  const d = structured(await call('kb_search', { query: 'release' }));
  assert.deepEqual([d.stage, d.code], ['upstream', 'upstream_unavailable']);
});
