// End-to-end: every `workspace` action and validation failure through the real `agentteam exec` inside a daemon-launched runtime.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runExecSteps, TestDaemon } from '../../../test/harness.js';

const d = new TestDaemon();
let a: Record<string, any>;
let aliceId: string;
let bobId: string;

before(async () => {
  await d.start();
  aliceId = (await d.addAgent('alice')).id;
  bobId = (await d.addAgent('bob')).id;
  a = await runExecSteps(d, 'alice', [
    { name: 'get', run: ['workspace', 'get'] },
    { name: 'all', run: ['workspace', 'members'] },
    { name: 'p1', run: ['workspace', 'members'], input: { limit: 1, filters: { kind: 'agent' } } },
    { name: 'p2', run: ['workspace', 'members'], input: { limit: 1, cursor: '${p1.data.nextCursor}', filters: { kind: 'agent' } } },
    { name: 'otherFilter', run: ['workspace', 'members'], input: { limit: 1, cursor: '${p1.data.nextCursor}', filters: { kind: 'human' } } },
    { name: 'query', run: ['workspace', 'members'], input: { filters: { query: 'OB' } } },
    { name: 'badKind', run: ['workspace', 'members'], input: { filters: { kind: 'robot' } } },
    { name: 'badLimit', run: ['workspace', 'members'], input: { limit: 101 } },
    { name: 'longQuery', run: ['workspace', 'members'], input: { filters: { query: 'x'.repeat(101) } } },
    { name: 'unknownField', run: ['workspace', 'get'], input: { name: 'x' } },
    { name: 'badCursor', run: ['workspace', 'members'], input: { cursor: 'nope' } },
    { name: 'examples', examples: 'workspace' },
  ]);
});
after(() => d.dispose());

test('workspace get and members work through agentteam exec in name, memberId order with filters bound into the cursor', () => {
  const w = a.get.out.data.workspace;
  assert.equal(a.get.code, 0);
  assert.deepEqual([w.counts.agents, w.counts.humans], [2, 1]);
  const names = a.all.out.data.members.map((m: any) => m.name);
  assert.deepEqual(names, [...names].sort());
  assert.ok(a.all.out.data.members.some((m: any) => m.memberId === aliceId));
  // The compact projection: no workspace id, no joinedAt; role only for the owner.
  assert.equal('id' in w, false);
  for (const m of a.all.out.data.members) assert.deepEqual(Object.keys(m).sort(), m.kind === 'human' ? ['kind', 'memberId', 'name', 'role'] : ['kind', 'memberId', 'name']);
  assert.deepEqual([a.p1.out.data.members[0].memberId, a.p2.out.data.members[0].memberId], [aliceId, bobId]);
  assert.equal(a.p2.out.data.hasMore, false);
  assert.equal(a.otherFilter.out.error.code, 'validation_failed');
  assert.deepEqual(a.query.out.data.members.map((m: any) => m.memberId), [bobId]);
});

test('every validation failure is typed', () => {
  for (const k of ['badKind', 'badLimit', 'longQuery', 'unknownField']) {
    assert.equal(a[k].code, 2, k);
    assert.equal(a[k].out.error.code, 'validation_failed', k);
  }
  // The CLI cannot check a cursor's MAC: the server rejects it (ok:false, exit 1), never as page one.
  assert.deepEqual([a.badCursor.code, a.badCursor.out.error.code], [1, 'validation_failed']);
});

test("each descriptor's canonical help example runs; help pages are short", () => {
  const ex = a.examples.out;
  assert.deepEqual(Object.keys(ex).sort(), ['get', 'members']);
  for (const [k, v] of Object.entries(ex) as [string, any][]) {
    assert.equal(v.code, 0, k);
    assert.ok(v.helpChars <= 1000, `${k} help is about 250 tokens at most`);
  }
});
