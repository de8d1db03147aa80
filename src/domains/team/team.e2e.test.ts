// End-to-end: every `team` action, validation failure and denial through the real `agentteam exec` inside daemon-launched runtimes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runExecSteps, TestDaemon } from '../../../test/harness.js';

const d = new TestDaemon();
let a: Record<string, any>;
let b: Record<string, any>;
let bobId: string;

before(async () => {
  await d.start();
  await d.addAgent('alice');
  bobId = (await d.addAgent('bob')).id;
  a = await runExecSteps(d, 'alice', [
    { name: 'create', run: ['team', 'create'], input: { handle: 'Core', displayName: 'Core team', idempotencyKey: 'team-e2e-1' } },
    { name: 'replay', run: ['team', 'create'], input: { handle: 'Core', displayName: 'Core team', idempotencyKey: 'team-e2e-1' } },
    { name: 'keyReuse', run: ['team', 'create'], input: { handle: 'other', displayName: 'Other', idempotencyKey: 'team-e2e-1' } },
    { name: 'dupHandle', run: ['team', 'create'], input: { handle: 'core', displayName: 'Copy' } },
    { name: 'get', run: ['team', 'get'], input: { teamId: '${create.data.team.id}' } },
    { name: 'update', run: ['team', 'update'], input: { teamId: '${create.data.team.id}', expectedRevision: 1, displayName: 'Core platform' } },
    { name: 'stale', run: ['team', 'update'], input: { teamId: '${create.data.team.id}', expectedRevision: 1, displayName: 'late' } },
    // The member id comes from what workspace members showed; remove-member takes the id team members showed.
    { name: 'ws', run: ['workspace', 'members'], input: { filters: { query: 'bob' } } },
    { name: 'add', run: ['team', 'add-member'], input: { teamId: '${create.data.team.id}', memberId: '${ws.data.members.0.memberId}', idempotencyKey: 'team-e2e-2' } },
    { name: 'members', run: ['team', 'members'], input: { teamId: '${create.data.team.id}', limit: 1 } },
    { name: 'second', run: ['team', 'create'], input: { handle: 'Docs', displayName: 'Alpha docs' } },
    { name: 'list', run: ['team', 'list'], input: { limit: 1 } },
    { name: 'list2', run: ['team', 'list'], input: { limit: 1, cursor: '${list.data.nextCursor}' } },
    { name: 'remove', run: ['team', 'remove-member'], input: { teamId: '${create.data.team.id}', memberId: '${members.data.members.0.memberId}' } },
    { name: 'badHandle', run: ['team', 'create'], input: { handle: 'has space', displayName: 'x' } },
    { name: 'noName', run: ['team', 'create'], input: { handle: 'ok' } },
    { name: 'longName', run: ['team', 'create'], input: { handle: 'ok', displayName: 'x'.repeat(101) } },
    { name: 'unknownField', run: ['team', 'update'], input: { teamId: '${create.data.team.id}', expectedRevision: 3, color: 'red' } },
    { name: 'badLimit', run: ['team', 'members'], input: { teamId: '${create.data.team.id}', limit: 101 } },
    { name: 'dotId', run: ['team', 'get'], input: { teamId: '.' } },
    { name: 'missingMember', run: ['team', 'add-member'], input: { teamId: '${create.data.team.id}', memberId: 'agt_nobody' } },
    { name: 'missing', run: ['team', 'get'], input: { teamId: 'team_missing' } },
    { name: 'examples', examples: 'team' },
  ]);
  const id = a.create.out.data.team.id;
  b = await runExecSteps(d, 'bob', [
    { name: 'get', run: ['team', 'get'], input: { teamId: id } },
    { name: 'list', run: ['team', 'list'] },
    { name: 'members', run: ['team', 'members'], input: { teamId: id } },
    { name: 'update', run: ['team', 'update'], input: { teamId: id, expectedRevision: 4, displayName: 'taken over' } },
    { name: 'add', run: ['team', 'add-member'], input: { teamId: id, memberId: bobId } },
    { name: 'remove', run: ['team', 'remove-member'], input: { teamId: id, memberId: bobId } },
    { name: 'after', run: ['team', 'get'], input: { teamId: id } },
  ]);
});
after(() => d.dispose());

test('every team action works through agentteam exec; handles ignore case; the key replays; stale revisions conflict', () => {
  const t = a.create.out.data.team;
  assert.deepEqual([a.create.code, t.handle, t.displayName, t.revision, t.createdBy], [0, 'Core', 'Core team', 1, 'alice (agent)']);
  assert.deepEqual(Object.keys(t).sort(), ['createdBy', 'displayName', 'handle', 'id', 'revision', 'updatedAt'], 'no description, no member id');
  assert.equal(a.replay.out.data.team.id, t.id);
  assert.equal(a.keyReuse.out.error.code, 'idempotency_conflict');
  assert.equal(a.dupHandle.out.error.code, 'conflict');
  assert.equal(a.get.out.data.team.id, t.id);
  assert.equal(a.update.out.data.team.displayName, 'Core platform');
  assert.equal(a.stale.out.error.code, 'conflict');
  assert.deepEqual(a.add.out.data, { teamId: t.id, member: { memberId: bobId, name: 'bob', kind: 'agent' } });
  assert.deepEqual(a.members.out.data.members, [{ memberId: bobId, name: 'bob', kind: 'agent' }]);
  // displayName ASC: "Alpha docs" before "Core platform", one per page.
  assert.deepEqual([a.list.out.data.teams[0].handle, a.list2.out.data.teams[0].handle], ['Docs', 'Core']);
  assert.deepEqual(a.list2.out.data.teams[0], { id: t.id, handle: 'Core', displayName: 'Core platform', revision: 3 }, 'a list item: no createdBy or updatedAt');
  assert.equal(a.list2.out.data.hasMore, false);
  assert.equal(a.remove.out.data.removed, true);
});

test('every validation failure is typed and changes nothing', () => {
  for (const k of ['badHandle', 'noName', 'longName', 'unknownField', 'badLimit', 'dotId']) {
    assert.equal(a[k].code, 2, k);
    assert.equal(a[k].out.error.code, 'validation_failed', k);
  }
  assert.equal(a.missingMember.out.error.code, 'not_found');
  assert.equal(a.missing.out.error.code, 'not_found');
});

test('another member reads the team and its members but every change is denied', () => {
  assert.equal(b.get.code, 0);
  assert.equal(b.get.out.data.team.createdBy, 'alice (agent)');
  assert.ok(b.list.out.data.teams.some((x: any) => x.id === a.create.out.data.team.id));
  assert.deepEqual(b.members.out.data.members, []);
  for (const k of ['update', 'add', 'remove']) {
    assert.equal(b[k].out.error.code, 'denied', k);
    assert.equal(b[k].code, 4, k);
  }
  assert.equal(b.after.out.data.team.revision, a.remove.code === 0 ? 4 : -1, 'denied calls changed nothing');
});

test('each descriptor\'s canonical help example runs to a typed answer; help pages are short', () => {
  const ex = a.examples.out;
  assert.deepEqual(Object.keys(ex).sort(), ['add-member', 'create', 'get', 'list', 'members', 'remove-member', 'update']);
  for (const [k, v] of Object.entries(ex) as [string, any][]) {
    assert.ok(v.example, k);
    assert.ok(v.code === 0 || ['not_found', 'conflict'].includes(v.errorCode), `${k}: ${JSON.stringify(v)}`);
    assert.ok(v.helpChars <= 1000, `${k} help is about 250 tokens at most`);
  }
  assert.equal(ex.create.code, 0);
  assert.equal(ex.list.code, 0);
});
