// Tests the knowledge domain on the real server (SQLite, or PostgreSQL via the suites runner): owner-only sources, sync upserts,
// every turn revalidation rule (positive and negative), source ACLs per scope, sectioned fetch, failure stages, fuzzed queries.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { ServerApi } from '../../server-client/api.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { jsonBytes, textBytes } from '../../shared/bounds.js';
import { FETCH_PAGE_BYTES, HITS_BYTES_MAX, KB_BOUNDS, SECTION_BYTES_MAX, SECTIONS_MAX, type SearchInput } from './contract.js';

let t: TestServer;
let alice: ServerApi;
let aliceId: string;
let bob: ServerApi;
let serverId: string;
let humanMsg: string;
let agentMsg: string;
let engMsg: string;
let generalSrc: string;
let engSrc: string;

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const put = (src: string, path: string, content: string, mtime = 1) => t.owner.knowledge.putDocument({ sourceId: src, path, hash: sha(content), mtime, content });
const stageOf = (e: unknown) => ((e as { details?: { stage?: string } }).details ?? {}).stage;
const failsAt = (stage: string, code: string) => (e: unknown) => stageOf(e) === stage && (e as { code?: string }).code === code;

before(async () => {
  t = await startTestServer();
  serverId = t.server.serverId;
  const a = await t.owner.members.createAgent({ name: 'alice' });
  alice = t.client.as(a.credential);
  aliceId = a.agent.id;
  bob = t.client.as((await t.owner.members.createAgent({ name: 'bob' })).credential);
  await t.owner.channels.addMember({ channelId: 'general', memberId: aliceId });
  await t.owner.channels.create({ id: 'eng' });
  await t.owner.channels.addMember({ channelId: 'eng', memberId: aliceId });
  humanMsg = (await t.owner.messages.send({ target: 'channel:general', content: 'where is the deploy guide?' })).id;
  agentMsg = (await alice.messages.send({ target: 'channel:general', content: 'I wrote this' })).id;
  engMsg = (await t.owner.messages.send({ target: 'channel:eng', content: 'eng question' })).id;
  generalSrc = (await t.owner.knowledge.createSource({ name: 'handbook', kind: 'folder', scopes: ['channel:general'] })).id;
  engSrc = (await t.owner.knowledge.createSource({ name: 'eng notes', kind: 'upload', scopes: ['channel:eng'] })).id;
  await put(generalSrc, 'deploy.md', '# Deploy guide\nRun the pipeline, then verify canary health.\n## Rollback\nRevert the release tag.');
  await put(engSrc, 'secret.md', '# Eng only\nThe canary pipeline secret plan.');
});
after(async () => t.stop());

const bind = (over: Partial<SearchInput> = {}) => {
  const { query: _q, ...b } = turn(over);
  return b;
};
const turn = (over: Partial<SearchInput> = {}): SearchInput => ({ serverId, target: 'channel:general', targetType: 'channel', messageId: humanMsg, query: 'canary pipeline', ...over });

test('only the owner manages sources; a sync upsert with the same hash changes nothing', async () => {
  await assert.rejects(alice.knowledge.createSource({ name: 'x', kind: 'upload', scopes: ['workspace'] }), (e: { code?: string }) => e.code === 'denied');
  await assert.rejects(alice.knowledge.listSources(), (e: { code?: string }) => e.code === 'denied');
  await assert.rejects(t.owner.knowledge.createSource({ name: 'x', kind: 'upload', scopes: ['channel:Bad Name'] }), (e: { code?: string }) => e.code === 'validation_failed');
  // Generated ids are base64url: `-` and `_` are id characters, so every scope of a real DM, thread or task is accepted.
  const idChars = (await t.owner.knowledge.createSource({ name: 'id chars', kind: 'upload', scopes: ['dm:dm_-a_b-', 'thread:general/msg_x-y', 'task:tsk_-q'] })).scopes;
  assert.deepEqual(idChars, ['dm:dm_-a_b-', 'task:tsk_-q', 'thread:general/msg_x-y']);
  const again = await put(generalSrc, 'deploy.md', '# Deploy guide\nRun the pipeline, then verify canary health.\n## Rollback\nRevert the release tag.', 5);
  assert.equal(again.changed, false);
  const docs = (await t.owner.knowledge.documents({ sourceId: generalSrc })).documents;
  assert.deepEqual(docs.map((d) => [d.path, d.mtime]), [['deploy.md', 5]]);
  const listed = (await t.owner.knowledge.listSources()).sources.find((s) => s.id === generalSrc)!;
  assert.deepEqual([listed.documents, listed.sections, listed.scopes], [1, 2, ['channel:general']]);
});

test('a Human turn in #general finds #general knowledge and never the #eng source (ACL)', async () => {
  const hits = (await alice.knowledge.search(turn())).hits;
  assert.ok(hits.length >= 1);
  assert.ok(hits.every((h) => h.title === 'Deploy guide'), JSON.stringify(hits));
  assert.match(hits[0]!.snippet, /\[(canary|pipeline)\]/i);
  const fromEng = (await alice.knowledge.search(turn({ target: 'channel:eng', messageId: engMsg }))).hits;
  assert.deepEqual([...new Set(fromEng.map((h) => h.title))], ['Eng only']);
  const engDoc = fromEng[0]!.documentId;
  await assert.rejects(alice.knowledge.fetch({ ...bind(), documentId: engDoc }), failsAt('upstream', 'not_found'));
  const doc = await alice.knowledge.fetch({ ...bind({ target: 'channel:eng', messageId: engMsg }), documentId: engDoc });
  assert.equal(doc.sections[0]!.heading, 'Eng only');
});

test('ranking: the best visible sections in exact order (score, then insertion) even when another scope\'s sections outrank them all', async () => {
  // Short #eng sections outrank every #general one, more of them than any fixed window ranked before the source filter.
  const crowd = Array.from({ length: 80 }, (_, i) => `## Crowd ${i}\nquokka quokka quokka`).join('\n');
  await put(engSrc, 'crowd.md', crowd);
  // One #general section outranks the crowd (inside the candidates), the others rank below all of it (outside them).
  await put(generalSrc, 'quokka.md', ['# Quokka best', 'quokka quokka quokka quokka', '# Quokka one', 'a quokka in a long line of other words about the zoo and its keepers', '# Quokka two', 'one more quokka among many other plain words here', '# Quokka three', 'the last quokka of the general handbook, with filler words'].join('\n'));
  const general = (await alice.knowledge.search(turn({ query: 'quokka', limit: 20 }))).hits;
  assert.deepEqual(general.map((h) => h.heading).sort(), ['Quokka best', 'Quokka one', 'Quokka three', 'Quokka two'], JSON.stringify(general));
  assert.equal(general[0]!.heading, 'Quokka best');
  assert.ok(general.every((h) => /\[quokka\]/i.test(h.snippet)), 'snippets of the rows returned');
  assert.ok(general.every((h, i) => i === 0 || general[i - 1]!.score >= h.score), 'best first');
  // From #eng the equal-score sections tie: the first 20 in insertion order, never a #general one.
  const eng = (await alice.knowledge.search(turn({ target: 'channel:eng', messageId: engMsg, query: 'quokka', limit: 20 }))).hits;
  assert.deepEqual(eng.map((h) => h.heading), Array.from({ length: 20 }, (_, i) => `Crowd ${i}`));
});

test('revalidation: workspace, scope type, message in target, Human author, agent readability (each negative is target_scope_resolution)', async () => {
  assert.ok((await alice.knowledge.search(turn())).hits.length > 0, 'positive: every rule holds');
  const denied = failsAt('target_scope_resolution', 'denied');
  await assert.rejects(alice.knowledge.search(turn({ serverId: 'srv_other' })), denied, 'cross-workspace turn');
  await assert.rejects(alice.knowledge.search(turn({ targetType: 'dm' })), denied, 'scope type mismatch');
  await assert.rejects(alice.knowledge.search(turn({ messageId: engMsg })), denied, 'message not in the target');
  await assert.rejects(alice.knowledge.search(turn({ messageId: agentMsg })), denied, 'message by an agent');
  await assert.rejects(bob.knowledge.search(turn()), denied, 'agent not a member of the target');
  await assert.rejects(alice.knowledge.search(turn({ target: 'channel:General' })), failsAt('request_validation', 'validation_failed'));
  await assert.rejects(alice.knowledge.search(turn({ messageId: '../x' })), failsAt('request_validation', 'validation_failed'));
  await assert.rejects(alice.knowledge.search(turn({ query: '*** ((' })), failsAt('request_validation', 'validation_failed'));
});

test('workspace-scoped sources are visible from every readable target; a thread sees its channel', async () => {
  const ws = (await t.owner.knowledge.createSource({ name: 'all', kind: 'upload', scopes: ['workspace'] })).id;
  await put(ws, 'zebra.md', '# Zebra policy\nzebras everywhere');
  assert.equal((await alice.knowledge.search(turn({ query: 'zebras' }))).hits.length, 1);
  assert.equal((await alice.knowledge.search(turn({ target: 'channel:eng', messageId: engMsg, query: 'zebras' }))).hits.length, 1);
  const reply = await t.owner.messages.send({ target: `thread:general/${humanMsg}`, content: 'in thread' });
  const th = (await alice.knowledge.search(turn({ target: `thread:general/${humanMsg}`, targetType: 'thread', messageId: reply.id, query: 'rollback' }))).hits;
  assert.deepEqual(th.map((h) => h.heading), ['Rollback']);
});

test('a large document is fetched section by section, each page bounded', async () => {
  const big = Array.from({ length: 40 }, (_, i) => `## Part ${i}\n${'lorem ipsum '.repeat(300)}`).join('\n');
  const d = await put(generalSrc, 'big.md', big);
  assert.equal(d.sections, 40);
  let section: number | undefined = 0;
  const seen: number[] = [];
  while (section !== undefined) {
    const page: Awaited<ReturnType<ServerApi['knowledge']['fetch']>> = await alice.knowledge.fetch({ ...bind(), documentId: d.documentId, section });
    assert.ok(jsonBytes(page.sections) <= FETCH_PAGE_BYTES || page.sections.length === 1);
    seen.push(...page.sections.map((s) => s.section));
    section = page.nextSection;
  }
  assert.deepEqual(seen, Array.from({ length: 40 }, (_, i) => i));
  await assert.rejects(alice.knowledge.fetch({ ...bind(), documentId: d.documentId, section: 40 }), failsAt('request_validation', 'validation_failed'));
  assert.equal((await t.owner.knowledge.removeDocument({ sourceId: generalSrc, path: 'big.md' })).removed, true);
  await assert.rejects(alice.knowledge.fetch({ ...bind(), documentId: d.documentId }), failsAt('upstream', 'not_found'));
});

test('fuzz: no query string makes full-text search throw anything but a classified validation failure', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.string({ minLength: 1, maxLength: 80 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), fc.constantFrom('"', 'NEAR(a b)', 'a OR', 'heading:x', '!&|', "'", '\\', '*', 'a:* & !b', '(((')), async (q) => {
      try {
        const r = await alice.knowledge.search(turn({ query: q }));
        assert.ok(Array.isArray(r.hits));
      } catch (e) {
        assert.ok(failsAt('request_validation', 'validation_failed')(e), `query ${JSON.stringify(q)} failed with ${String((e as Error).message)}`);
      }
    }),
    { numRuns: 150 },
  );
});

test('bounds in serialized bytes: worst-case characters split into byte-bounded sections, pages and hits; over-bound documents are refused and store nothing', async () => {
  // Control characters and quotes cost 6 and 2 bytes as JSON: 2,000 runs of them are ~48 KB serialized in one heading's body.
  const nasty = `# "Quoted" ${'"'.repeat(600)}\n${'canary \u0001\u0002"\\ '.repeat(2000)}`;
  const d = await put(generalSrc, 'nasty.md', nasty);
  assert.ok(d.sections >= 5, `${d.sections} sections`);
  let section: number | undefined = 0;
  let text = '';
  while (section !== undefined) {
    const page: Awaited<ReturnType<ServerApi['knowledge']['fetch']>> = await alice.knowledge.fetch({ ...bind(), documentId: d.documentId, section });
    assert.ok(jsonBytes(page.sections) <= FETCH_PAGE_BYTES, `page of ${jsonBytes(page.sections)} bytes`);
    assert.ok(textBytes(page.title) <= KB_BOUNDS.title.bytes);
    for (const s of page.sections) assert.ok(textBytes(s.text) <= SECTION_BYTES_MAX && textBytes(s.heading) <= 1200);
    text += page.sections.map((s) => s.text).join('');
    section = page.nextSection;
  }
  assert.equal(text, nasty.slice(nasty.indexOf('\n') + 1), 'the sections hold the whole body, cut but not lost');
  const hits = (await alice.knowledge.search(turn({ query: 'canary quoted', limit: 20 }))).hits;
  assert.ok(hits.length >= 1 && jsonBytes(hits) <= HITS_BYTES_MAX, `${hits.length} hits, ${jsonBytes(hits)} bytes`);

  const before = (await t.owner.knowledge.documents({ sourceId: generalSrc })).documents.length;
  const tooBig = '\u0001'.repeat(400_000);
  await assert.rejects(put(generalSrc, 'huge.md', tooBig), (e: Error & { code?: string }) => e.code === 'validation_failed' && /content is 2400000 bytes as JSON; the limit is 2000000 bytes/.test(e.message));
  await assert.rejects(put(generalSrc, 'headings.md', '# h\n'.repeat(SECTIONS_MAX + 1)), (e: Error & { code?: string }) => e.code === 'validation_failed' && e.message.includes(`limit is ${SECTIONS_MAX}`));
  await assert.rejects(put(generalSrc, '"'.repeat(1001), 'x'), (e: { code?: string }) => e.code === 'validation_failed');
  await assert.rejects(put(generalSrc, '\u0001'.repeat(400), 'x'), (e: Error & { code?: string }) => e.code === 'validation_failed' && /path is 2400 bytes as JSON; the limit is 2000 bytes/.test(e.message));
  assert.equal((await t.owner.knowledge.documents({ sourceId: generalSrc })).documents.length, before, 'nothing stored');
  assert.equal((await t.owner.knowledge.removeDocument({ sourceId: generalSrc, path: 'nasty.md' })).removed, true);
});

test('tampered fetch positions: an unknown documentId shape, a section past the bound, another scope\'s document', async () => {
  await assert.rejects(alice.knowledge.fetch({ ...bind(), documentId: '../kbd_x' }), failsAt('request_validation', 'validation_failed'));
  await assert.rejects(alice.knowledge.fetch({ ...bind(), documentId: 'kbd_x', section: SECTIONS_MAX }), (e: { code?: string }) => e.code === 'validation_failed');
  const eng = (await alice.knowledge.search(turn({ target: 'channel:eng', messageId: engMsg, query: 'secret' }))).hits[0]!.documentId;
  await assert.rejects(alice.knowledge.fetch({ ...bind(), documentId: eng, section: 0 }), failsAt('upstream', 'not_found'));
});

test('dm and task targets: a Human message there binds its own scope; a DM the agent is not in, or a task message off the task, is refused', async () => {
  const dm = await t.owner.channels.openDm({ memberIds: [aliceId] });
  const dmMsg = (await t.owner.messages.send({ target: `dm:${dm.id}`, content: 'private question' })).id;
  const dmSrc = (await t.owner.knowledge.createSource({ name: 'dm notes', kind: 'upload', scopes: [`dm:${dm.id}`] })).id;
  await put(dmSrc, 'dm.md', '# Private runbook\nwalrus procedure');
  const dmTurn = { target: `dm:${dm.id}`, targetType: 'dm', messageId: dmMsg, query: 'walrus' };
  assert.deepEqual((await alice.knowledge.search(turn(dmTurn))).hits.map((h) => h.title), ['Private runbook']);
  assert.deepEqual((await alice.knowledge.search(turn({ query: 'walrus' }))).hits, [], 'the DM source is invisible from #general');
  await assert.rejects(bob.knowledge.search(turn(dmTurn)), failsAt('target_scope_resolution', 'denied'), 'bob is not in the DM');

  const task = await t.owner.tasks.create({ title: 'ship it' });
  const taskMsg = (await t.owner.messages.send({ target: `task:${task.id}`, content: 'how do we ship?' })).id;
  const taskSrc = (await t.owner.knowledge.createSource({ name: 'task notes', kind: 'upload', scopes: [`task:${task.id}`] })).id;
  await put(taskSrc, 'task.md', '# Task brief\nnarwhal checklist');
  const taskTurn = { target: `task:${task.id}`, targetType: 'task', messageId: taskMsg, query: 'narwhal' };
  assert.deepEqual((await bob.knowledge.search(turn(taskTurn))).hits.map((h) => h.title), ['Task brief'], 'a task discussion is open to every member');
  await assert.rejects(alice.knowledge.search(turn({ ...taskTurn, messageId: humanMsg })), failsAt('target_scope_resolution', 'denied'), 'message not on the task');
  await assert.rejects(alice.knowledge.search(turn({ ...taskTurn, targetType: 'channel' })), failsAt('target_scope_resolution', 'denied'), 'scope type mismatch');
});

test('a sync ends by merging the index: every search answers exactly as before, and later writes are found', async () => {
  const src = (await t.owner.knowledge.createSource({ name: 'merged', kind: 'upload', scopes: ['channel:general'] })).id;
  // One transaction per document, as a sync writes them: the index grows a segment each time.
  for (let d = 0; d < 12; d++) await put(src, `m${d}.md`, Array.from({ length: 5 }, (_, s) => `## Merge ${d}-${s}\nwombat ${'numbat '.repeat(s + 1)} mark${d}x${s}`).join('\n'));
  const queries = ['wombat', 'numbat wombat', 'mark3x2', 'mark11x4 wombat', 'canary pipeline'];
  const run = () => Promise.all(queries.map(async (query) => (await alice.knowledge.search(turn({ query, limit: 20 }))).hits));
  const before = await run();
  assert.ok(before.every((hits) => hits.length > 0), JSON.stringify(before.map((h) => h.length)));
  const synced = await t.owner.knowledge.markSynced({ sourceId: src });
  assert.ok(synced.syncedAt !== null && synced.sections === 60);
  assert.deepEqual(await run(), before);
  await put(src, 'm0.md', '## Merge again\nwombat freshafter');
  assert.deepEqual((await alice.knowledge.search(turn({ query: 'freshafter' }))).hits.map((h) => h.heading), ['Merge again']);
  assert.deepEqual((await alice.knowledge.search(turn({ query: 'mark0x1' }))).hits, []);
});

test('the owner lists a source\'s documents in keyset pages by path; every document once; a cursor is bound to its source', async () => {
  const src = (await t.owner.knowledge.createSource({ name: 'paged', kind: 'upload', scopes: ['workspace'] })).id;
  const other = (await t.owner.knowledge.createSource({ name: 'paged-other', kind: 'upload', scopes: ['workspace'] })).id;
  const paths = Array.from({ length: 215 }, (_, i) => `p/${String(i).padStart(3, '0')}.md`);
  for (const p of paths) await put(src, p, `# ${p}`);
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await t.owner.knowledge.documents({ sourceId: src, cursor });
    assert.ok(page.documents.length <= 100 && page.hasMore === (page.nextCursor !== undefined));
    seen.push(...page.documents.map((d) => d.path));
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  assert.deepEqual(seen, paths, 'sorted by path, no repeat, no gap');
  assert.equal(pages, 3);
  const firstPage = await t.owner.knowledge.documents({ sourceId: src });
  await assert.rejects(t.owner.knowledge.documents({ sourceId: other, cursor: firstPage.nextCursor }), (e: { code?: string }) => e.code === 'validation_failed', 'a cursor of another source is refused');
  await assert.rejects(alice.knowledge.documents({ sourceId: src }), (e: { code?: string }) => e.code === 'denied');
});

test('a removed agent is refused on its very next search (credentials are looked up per request, never cached)', async () => {
  const c = await t.owner.members.createAgent({ name: 'carol' });
  await t.owner.channels.addMember({ channelId: 'general', memberId: c.agent.id });
  const carol = t.client.as(c.credential);
  assert.ok((await carol.knowledge.search(turn())).hits.length > 0);
  await t.owner.members.remove({ memberId: c.agent.id });
  await assert.rejects(carol.knowledge.search(turn()), (e: { code?: string; message?: string }) => e.code === 'denied' && e.message === 'forbidden');
});

test('a Human has no turn to bind: search and fetch by a Human are refused, even in a target the Human reads (failed before: the owner searched)', async () => {
  const denied = failsAt('target_scope_resolution', 'denied');
  await assert.rejects(t.owner.knowledge.search(turn()), denied);
  const doc = (await alice.knowledge.search(turn())).hits[0]!.documentId;
  await assert.rejects(t.owner.knowledge.fetch({ ...bind(), documentId: doc }), denied);
});

test('no oracle for DM traffic: for a DM the agent cannot read, every message id answers exactly as a missing target does (failed before: "not in the target" / "not written by a Human")', async () => {
  const dm = await t.owner.channels.openDm({ memberIds: [aliceId] });
  const inDmHuman = (await t.owner.messages.send({ target: `dm:${dm.id}`, content: 'private' })).id;
  const inDmAgent = (await alice.messages.send({ target: `dm:${dm.id}`, content: 'private reply' })).id;
  const answer = (e: unknown) => { const x = e as { code?: string; message?: string }; return JSON.stringify([x.code, stageOf(e), x.message]); };
  const missing = answer(await bob.knowledge.search(turn({ target: 'dm:dm9999999999', targetType: 'dm', messageId: humanMsg })).catch((e) => e));
  for (const [what, messageId] of [['its Human message', inDmHuman], ['its agent message', inDmAgent], ['a message of #general', humanMsg], ['no message', 'msg9999999999']] as const) {
    const got = answer(await bob.knowledge.search(turn({ target: `dm:${dm.id}`, targetType: 'dm', messageId })).catch((e) => e));
    assert.equal(got, missing, what);
    assert.equal(answer(await bob.knowledge.search(turn({ target: `dm:${dm.id}`, targetType: 'channel', messageId })).catch((e) => e)), missing, `${what}, type mismatch`);
  }
  assert.match(missing, /target_scope_resolution/);
});

test('a workflow step message is never a Human message for knowledge, even from a plan a Human wrote and started (failed before: its turn searched)', async () => {
  const plan = await t.owner.workflows.createPlan({ name: 'kb step', steps: [{ title: 'Look up the canary pipeline', assignee: aliceId }] });
  await t.owner.workflows.publishPlan({ planId: plan.id, revision: plan.revision });
  const run = await t.owner.workflows.startRun({ planId: plan.id, target: 'channel:general' });
  const stepMsg = run.steps[0]!;
  const messageId = (await alice.workflows.getStep({ stepId: stepMsg.id })).messageId!;
  await assert.rejects(alice.knowledge.search(turn({ messageId })), (e: unknown) => failsAt('target_scope_resolution', 'denied')(e) && /not written by a Human/.test((e as Error).message));
  assert.ok((await alice.knowledge.search(turn())).hits.length > 0, 'a Human message there still binds');
});
