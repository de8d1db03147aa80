// End-to-end: every `profile` action, validation failure and denial through the real `agentteam exec` inside daemon-launched runtimes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runExecSteps, TestDaemon } from '../../../test/harness.js';

const d = new TestDaemon();
let a: Record<string, any>;
let b: Record<string, any>;
let aliceId: string;

before(async () => {
  await d.start();
  aliceId = (await d.addAgent('alice')).id;
  await d.addAgent('bob');
  a = await runExecSteps(d, 'alice', [
    { name: 'get', run: ['profile', 'get'] },
    { name: 'update', run: ['profile', 'update'], input: { displayName: 'Alice A.', status: 'reviewing', idempotencyKey: 'prof-e2e-1' } },
    { name: 'replay', run: ['profile', 'update'], input: { displayName: 'Alice A.', status: 'reviewing', idempotencyKey: 'prof-e2e-1' } },
    { name: 'keyReuse', run: ['profile', 'update'], input: { status: 'other', idempotencyKey: 'prof-e2e-1' } },
    { name: 'self', run: ['profile', 'update'], input: { memberId: aliceId, bio: 'Release notes.' } },
    { name: 'empty', run: ['profile', 'update'], input: {} },
    { name: 'longBio', run: ['profile', 'update'], input: { bio: 'x'.repeat(1001) } },
    { name: 'blankName', run: ['profile', 'update'], input: { displayName: '' } },
    { name: 'unknownField', run: ['profile', 'update'], input: { color: 'red' } },
    { name: 'dotId', run: ['profile', 'get'], input: { memberId: '.' } },
    { name: 'missing', run: ['profile', 'get'], input: { memberId: 'agt_missing' } },
    { name: 'examples', examples: 'profile' },
  ]);
  b = await runExecSteps(d, 'bob', [
    { name: 'read', run: ['profile', 'get'], input: { memberId: aliceId } },
    { name: 'edit', run: ['profile', 'update'], input: { memberId: aliceId, status: 'hijacked' } },
    { name: 'after', run: ['profile', 'get'], input: { memberId: aliceId } },
  ]);
});
after(() => d.dispose());

test('profile get and update work through agentteam exec; the key replays; a reused key with another body conflicts', () => {
  assert.deepEqual([a.get.code, a.get.out.data.profile.memberId, a.get.out.data.profile.displayName], [0, aliceId, 'alice']);
  assert.deepEqual([a.update.out.data.profile.displayName, a.update.out.data.profile.revision], ['Alice A.', 1]);
  assert.deepEqual(a.replay.out.data.profile, a.update.out.data.profile);
  assert.equal(a.keyReuse.out.error.code, 'idempotency_conflict');
  assert.deepEqual([a.self.out.data.profile.bio, a.self.out.data.profile.revision], ['Release notes.', 2]);
  assert.equal(a.missing.out.error.code, 'not_found');
});

test('every validation failure is typed', () => {
  for (const k of ['longBio', 'blankName', 'unknownField', 'dotId']) {
    assert.equal(a[k].code, 2, k);
    assert.equal(a[k].out.error.code, 'validation_failed', k);
  }
  assert.equal(a.empty.out.error.code, 'validation_failed');
});

test("another agent reads alice's profile but editing it is denied and changes nothing", () => {
  assert.equal(b.read.out.data.profile.status, 'on release duty', 'the canonical example ran last as alice');
  assert.deepEqual([b.edit.code, b.edit.out.error.code], [4, 'denied']);
  assert.deepEqual(b.after.out.data.profile, b.read.out.data.profile);
});

test("each descriptor's canonical help example runs; help pages are short", () => {
  const ex = a.examples.out;
  assert.deepEqual(Object.keys(ex).sort(), ['get', 'update']);
  for (const [k, v] of Object.entries(ex) as [string, any][]) {
    assert.equal(v.code, 0, k);
    assert.ok(v.helpChars <= 1000, `${k} help is about 250 tokens at most`);
  }
});
