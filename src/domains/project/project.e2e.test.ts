// End-to-end: every `project` action, validation failure and denial through the real `agentteam exec` inside daemon-launched runtimes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runExecSteps, TestDaemon } from '../../../test/harness.js';

const d = new TestDaemon();
let a: Record<string, any>;
let b: Record<string, any>;

before(async () => {
  await d.start();
  await d.addAgent('alice');
  await d.addAgent('bob');
  a = await runExecSteps(d, 'alice', [
    { name: 'create', run: ['project', 'create'], input: { name: 'E2E', description: 'through the CLI', idempotencyKey: 'e2e-1' } },
    { name: 'replay', run: ['project', 'create'], input: { name: 'E2E', description: 'through the CLI', idempotencyKey: 'e2e-1' } },
    { name: 'keyReuse', run: ['project', 'create'], input: { name: 'other', idempotencyKey: 'e2e-1' } },
    { name: 'get', run: ['project', 'get'], input: { projectId: '${create.data.project.id}' } },
    { name: 'update', run: ['project', 'update'], input: { projectId: '${create.data.project.id}', expectedRevision: 1, name: 'E2E 2', idempotencyKey: 'e2e-2' } },
    { name: 'stale', run: ['project', 'update'], input: { projectId: '${create.data.project.id}', expectedRevision: 1, name: 'late' } },
    { name: 'archive', run: ['project', 'archive'], input: { projectId: '${create.data.project.id}', expectedRevision: 2 } },
    { name: 'taskInArchived', run: ['task', 'create'], input: { title: 'late', projectId: '${create.data.project.id}' } },
    { name: 'unarchive', run: ['project', 'unarchive'], input: { projectId: '${create.data.project.id}' } },
    { name: 'task', run: ['task', 'create'], input: { title: 'filed', projectId: '${create.data.project.id}' } },
    { name: 'tasks', run: ['task', 'list'], input: { filters: { projectId: '${create.data.project.id}' } } },
    { name: 'list', run: ['project', 'list'], input: { limit: 1, filters: { status: 'active', query: 'e2e' } } },
    // What the list showed is enough for the next call: get by its id, a revision-checked archive by its revision.
    { name: 'listedGet', run: ['project', 'get'], input: { projectId: '${list.data.projects.0.id}' } },
    { name: 'listedArchive', run: ['project', 'archive'], input: { projectId: '${list.data.projects.0.id}', expectedRevision: '${list.data.projects.0.revision}' } },
    { name: 'listedUnarchive', run: ['project', 'unarchive'], input: { projectId: '${list.data.projects.0.id}', expectedRevision: '${listedArchive.data.project.revision}' } },
    { name: 'noName', run: ['project', 'create'], input: {} },
    { name: 'longName', run: ['project', 'create'], input: { name: 'x'.repeat(201) } },
    { name: 'blankName', run: ['project', 'create'], input: { name: '   ' } },
    { name: 'unknownField', run: ['project', 'update'], input: { projectId: '${create.data.project.id}', expectedRevision: 4, color: 'red' } },
    { name: 'badLimit', run: ['project', 'list'], input: { limit: 0 } },
    { name: 'badStatus', run: ['project', 'list'], input: { filters: { status: 'deleted' } } },
    { name: 'dotId', run: ['project', 'get'], input: { projectId: '..' } },
    { name: 'missing', run: ['project', 'get'], input: { projectId: 'prj_missing' } },
    { name: 'noChange', run: ['project', 'update'], input: { projectId: '${create.data.project.id}', expectedRevision: 4 } },
    { name: 'badCursor', run: ['project', 'list'], input: { cursor: 'AAAA.BBBB' } },
    { name: 'examples', examples: 'project' },
  ]);
  const id = a.create.out.data.project.id;
  b = await runExecSteps(d, 'bob', [
    { name: 'get', run: ['project', 'get'], input: { projectId: id } },
    { name: 'list', run: ['project', 'list'] },
    { name: 'update', run: ['project', 'update'], input: { projectId: id, expectedRevision: 4, name: 'taken over' } },
    { name: 'archive', run: ['project', 'archive'], input: { projectId: id } },
    { name: 'unarchive', run: ['project', 'unarchive'], input: { projectId: id } },
    { name: 'after', run: ['project', 'get'], input: { projectId: id } },
    { name: 'own', run: ['project', 'create'], input: { name: 'bob owns this' } },
  ]);
});
after(() => d.dispose());

test('every project action works through agentteam exec; the key replays; stale revisions conflict', () => {
  const p = a.create.out.data.project;
  assert.equal(a.create.code, 0);
  // Active: no status (its schema: absent means active); the creator by name (kind), no member id.
  assert.deepEqual([p.name, p.status, p.revision, p.createdBy], ['E2E', undefined, 1, 'alice (agent)']);
  assert.deepEqual(Object.keys(p).sort(), ['createdBy', 'description', 'id', 'name', 'revision', 'updatedAt']);
  assert.equal(a.replay.out.data.project.id, p.id, 'same idempotencyKey, same project');
  assert.equal(a.keyReuse.out.error.code, 'idempotency_conflict');
  assert.equal(a.get.out.data.project.id, p.id);
  assert.equal(a.update.out.data.project.name, 'E2E 2');
  assert.equal(a.stale.out.error.code, 'conflict');
  assert.equal(a.archive.out.data.project.status, 'archived');
  assert.equal(a.taskInArchived.out.error.code, 'conflict');
  assert.equal('status' in a.unarchive.out.data.project, false, 'active again: no status');
  assert.equal(a.task.out.data.task.projectId, p.id);
  assert.deepEqual(a.tasks.out.data.tasks.map((t: any) => t.id), [a.task.out.data.task.id]);
  assert.deepEqual(a.list.out.data.projects, [{ id: p.id, name: 'E2E 2', revision: 4, description: 'through the CLI' }], 'a list item: no createdBy or updatedAt');
  assert.equal(a.list.out.data.hasMore, false);
  assert.equal(a.listedGet.out.data.project.createdBy, 'alice (agent)');
  assert.deepEqual([a.listedArchive.code, a.listedArchive.out.data.project.status, a.listedUnarchive.code], [0, 'archived', 0]);
});

test('every validation failure is typed and changes nothing', () => {
  for (const k of ['noName', 'longName', 'unknownField', 'badLimit', 'badStatus', 'dotId']) {
    assert.equal(a[k].code, 2, k);
    assert.equal(a[k].out.error.code, 'validation_failed', k);
  }
  assert.equal(a.blankName.out.error.code, 'validation_failed');
  assert.equal(a.noChange.out.error.code, 'validation_failed');
  assert.equal(a.badCursor.out.error.code, 'validation_failed');
  assert.equal(a.missing.out.error.code, 'not_found');
  assert.equal(b.after.out.data.project.revision, 6, 'nothing but the six accepted changes');
});

test('another member reads and lists the project but every change is denied; they can create their own', () => {
  assert.equal(b.get.code, 0);
  assert.equal(b.get.out.data.project.createdBy, 'alice (agent)', 'another reader sees the creator by name too');
  assert.ok(b.list.out.data.projects.some((x: any) => x.id === a.create.out.data.project.id));
  for (const k of ['update', 'archive', 'unarchive']) {
    assert.equal(b[k].out.error.code, 'denied', k);
    assert.equal(b[k].code, 4, k);
  }
  assert.equal(b.after.out.data.project.name, 'E2E 2');
  assert.equal(b.own.out.data.project.name, 'bob owns this');
});

test('each descriptor\'s canonical help example runs to a typed answer; help pages are short', () => {
  const ex = a.examples.out;
  assert.deepEqual(Object.keys(ex).sort(), ['archive', 'create', 'get', 'list', 'unarchive', 'update']);
  for (const [k, v] of Object.entries(ex) as [string, any][]) {
    assert.ok(v.example, k);
    assert.ok(v.code === 0 || ['not_found', 'conflict'].includes(v.errorCode), `${k}: ${JSON.stringify(v)}`);
    assert.ok(v.helpChars <= 1000, `${k} help is about 250 tokens at most`);
  }
  assert.equal(ex.create.code, 0);
  assert.equal(ex.list.code, 0);
});
