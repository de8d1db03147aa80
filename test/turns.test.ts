// End-to-end: messages addressed to `command` agents become turns; the reply lands in the exact target (ARCHITECTURE §9).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDaemon } from './harness.js';
import { addTurnAgent, agentApi, messages, ownerApi, post, readLog, turns, waitFor } from './turns-kit.js';

const d = new TestDaemon();
const dir = mkdtempSync(join(tmpdir(), 'agentteam-turns-'));
const log = (n: string) => join(dir, `${n}.log`);
let owner: Awaited<ReturnType<typeof ownerApi>>;

before(async () => {
  const r = await d.run(['daemon', 'start', '--loop-bound', '3', '--turn-timeout', '3']);
  assert.equal(r.code, 0, r.stderr);
  d.pid = JSON.parse(r.stdout).pid;
  owner = await ownerApi(d);
});
after(async () => {
  owner?.close();
  await d.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test('a mention in #general is exactly one turn; the prompt and env name the exact target; the reply lands there', async () => {
  const a = await addTurnAgent(d, 'mia', log('mia'), 'reply');
  const m = await post(d, 'channel:general', '@mia what is the status?');
  const reply = await waitFor('the reply', async () => (await messages(d, 'channel:general')).find((x) => x.content === `reply to ${m.id}`));
  assert.equal(reply.author.id, a.id);
  const starts = readLog(log('mia')).filter((r) => r.ev === 'start');
  assert.equal(starts.length, 1);
  assert.equal(starts[0]!.target, 'channel:general');
  assert.equal(starts[0]!.targetType, 'channel');
  assert.equal(starts[0]!.messageId, m.id);
  assert.match(starts[0]!.prompt!, /Reply with `mcp__agentteam__message_send` to exactly `channel:general`/);
  assert.match(starts[0]!.prompt!, /agentteam exec task create/);
  assert.match(starts[0]!.prompt!, /what is the status\?/);
  // A message without the mention, and the agent's own reply, start no turn.
  await post(d, 'channel:general', 'no mention here, mia');
  const logs = await waitFor('the turn log', async () => (await turns(d, 'mia')).find((t) => t.status === 'done' && t.outcome === 'ok'));
  assert.equal(logs.messageId, m.id);
  assert.equal(typeof logs.durationMs, 'number');
  assert.equal((await turns(d, 'mia')).length, 1);
});

test('DMs, thread replies and task comments are turns answered in the same target', async () => {
  const a = await addTurnAgent(d, 'dex', log('dex'), 'reply');
  const dm = await owner.api.channels.openDm({ memberIds: [a.id] });
  const inDm = await post(d, `dm:${dm.id}`, 'hello in private');
  await waitFor('the DM reply', async () => (await messages(d, `dm:${dm.id}`)).find((x) => x.content === `reply to ${inDm.id}` && x.author.id === a.id));

  const root = await post(d, 'channel:general', '@dex start a thread here');
  await waitFor('the root reply', async () => (await messages(d, 'channel:general')).find((x) => x.content === `reply to ${root.id}`));
  const thread = `thread:general/${root.id}`;
  const inThread = await post(d, thread, 'a follow-up without any mention');
  await waitFor('the thread reply', async () => (await messages(d, thread)).find((x) => x.content === `reply to ${inThread.id}` && x.author.id === a.id));

  // A thread the agent started: its own message is the root.
  const own = (await messages(d, 'channel:general')).find((x) => x.author.id === a.id && x.target === 'channel:general')!;
  const ownThread = `thread:general/${own.id}`;
  const inOwn = await post(d, ownThread, 'replying to what you said');
  await waitFor('the reply in its own thread', async () => (await messages(d, ownThread)).find((x) => x.content === `reply to ${inOwn.id}`));

  // Not addressed: a mention in a channel it is not in, a comment on a task assigned to nobody.
  await owner.api.channels.create({ id: 'elsewhere' });
  await post(d, 'channel:elsewhere', '@dex you are not in here');
  const unassigned = await owner.api.tasks.create({ title: 'nobody' });
  await owner.api.tasks.comment({ taskId: unassigned.id, body: 'dex, anyone?' });

  const task = await owner.api.tasks.create({ title: 'release notes', assigneeId: a.id });
  const comment = await owner.api.tasks.comment({ taskId: task.id, body: 'please start on this' });
  await waitFor('the task reply', async () => (await messages(d, `task:${task.id}`)).find((x) => x.content === `reply to ${comment.id}` && x.author.id === a.id));

  const starts = readLog(log('dex')).filter((r) => r.ev === 'start');
  assert.deepEqual(
    starts.map((s) => [s.targetType, s.target]),
    [['dm', `dm:${dm.id}`], ['channel', 'channel:general'], ['thread', thread], ['thread', ownThread], ['task', `task:${task.id}`]],
  );
});

test("one session's turns run one at a time, in order", async () => {
  await addTurnAgent(d, 'ora', log('ora'), 'ordered');
  const posted = [];
  for (let i = 0; i < 3; i++) posted.push(await post(d, 'channel:general', `@ora item ${i}`));
  await waitFor('three replies', async () => readLog(log('ora')).filter((r) => r.ev === 'end').length === 3);
  const evs = readLog(log('ora'));
  assert.deepEqual(evs.map((e) => `${e.ev}:${e.messageId}`), posted.flatMap((m) => [`start:${m.id}`, `end:${m.id}`]));
});

test('a failing, missing or hanging runtime posts one classified notice to the target as the agent', async () => {
  const f = await addTurnAgent(d, 'fay', log('fay'), 'fail');
  const m = await post(d, 'channel:general', '@fay please fail');
  const notice = await waitFor('the failure notice', async () => (await messages(d, 'channel:general')).find((x) => x.author.id === f.id));
  assert.match(notice.content, /^fay could not answer \(exit_nonzero\): the runtime exited with code 3/);
  const t = await waitFor('the failed turn', async () => (await turns(d, 'fay')).find((x) => x.messageId === m.id && x.status === 'failed'));
  assert.equal(t.outcome, 'exit_nonzero');

  const r = await d.run(['agent', 'add', '--name', 'nox', '--runtime', 'command', '--', join(dir, 'no-such-binary')]);
  assert.equal(r.code, 0, r.stderr);
  await post(d, 'channel:general', '@nox are you there?');
  const missing = await waitFor('the missing notice', async () => (await messages(d, 'channel:general')).find((x) => x.author.name === 'nox'));
  assert.match(missing.content, /^nox could not answer \(runtime_missing\)/);

  const h = await addTurnAgent(d, 'hal', log('hal'), 'hang');
  await post(d, 'channel:general', '@hal take forever');
  const timeout = await waitFor('the timeout notice', async () => (await messages(d, 'channel:general')).find((x) => x.author.id === h.id));
  assert.match(timeout.content, /^hal could not answer \(timeout\)/);
  assert.equal((await turns(d, 'hal'))[0]!.outcome, 'timeout');
});

test('agent-to-agent mentions stop at the loop bound with one notice', async () => {
  const target = 'channel:loops';
  await owner.api.channels.create({ id: 'loops' });
  const ping = await addTurnAgent(d, 'ping', log('ping'), 'mention', 'pong');
  const pong = await addTurnAgent(d, 'pong', log('pong'), 'mention', 'ping');
  for (const a of [ping, pong]) await owner.api.channels.addMember({ channelId: 'loops', memberId: a.id });
  await post(d, target, '@ping start the exchange');
  const notice = await waitFor('the loop notice', async () => (await messages(d, target)).find((x) => /stopped: 3 agent messages in a row/.test(x.content)));
  assert.equal(notice.author.id, ping.id);
  // 1 Human message, 4 agent replies (runs 1..4: the 4th reply's turn is past the bound of 3), 1 notice; then silence.
  await new Promise((r) => setTimeout(r, 1500));
  const all = await messages(d, target);
  assert.equal(all.length, 6, all.map((x) => `${x.author.name}: ${x.content}`).join('\n'));
  assert.equal(readLog(log('ping')).filter((e) => e.ev === 'start').length + readLog(log('pong')).filter((e) => e.ev === 'start').length, 4);
  assert.ok((await turns(d, 'ping')).some((t) => t.outcome === 'loop_bound'));
});

test('workflow runs an agent starts stop at the loop bound like its messages, also after cancel and restart; a Human-started run still reaches its agent (failed before: 12 one-step runs were 12 turns)', async () => {
  const target = 'channel:wfloop';
  await owner.api.channels.create({ id: 'wfloop' });
  const boss = await addTurnAgent(d, 'boss', log('boss'), 'reply');
  // bee answers only once every run has started, so the feed order (and each step's agent run) is fixed: steps 1..12.
  const gate = join(dir, 'bee-gate');
  const bee = await addTurnAgent(d, 'bee', log('bee'), 'slow', gate);
  for (const a of [boss, bee]) await owner.api.channels.addMember({ channelId: 'wfloop', memberId: a.id });
  // A plan a Human wrote: its steps are posted as the Human, yet the runs the agent starts count.
  const plan = await owner.api.workflows.createPlan({ name: 'Poke bee', steps: [{ title: 'Look again', assignee: bee.id }] });
  await owner.api.workflows.publishPlan({ planId: plan.id, revision: plan.revision });
  await post(d, target, 'a Human message: the count starts here');
  const agent = await agentApi(d, boss.id);
  try {
    const runs = [];
    for (let i = 0; i < 12; i++) runs.push(await agent.api.workflows.startRun({ planId: plan.id, target }));
    writeFileSync(gate, '');
    const settled = async (n: number) => waitFor(`${n} settled bee turns`, async () => {
      const ts = await turns(d, 'bee');
      return ts.length >= n && ts.every((x) => x.status === 'done' || x.status === 'skipped' || x.status === 'failed') ? ts : undefined;
    });
    let ts = await settled(12);
    const started = readLog(log('bee')).filter((e) => e.ev === 'start').length;
    // Bound 3: the steps at agent runs 1..3 ran, the 9 later ones were skipped.
    assert.equal(started, 3);
    assert.equal(ts.filter((x) => x.outcome === 'loop_bound').length, 12 - started);
    const notices = async () => (await messages(d, target)).filter((x) => x.author.id === bee.id && /stopped: 3 agent messages in a row/.test(x.content));
    await waitFor('the loop notice', async () => (await notices()).length === 1);
    for (const r of runs) await agent.api.workflows.cancelRun({ runId: r.id });
    await agent.api.workflows.startRun({ planId: plan.id, target });
    ts = await settled(13);
    assert.equal(readLog(log('bee')).filter((e) => e.ev === 'start').length, started, 'cancel and restart do not reset the count');
    assert.equal(ts.filter((x) => x.outcome === 'loop_bound').length, 13 - started);
    // A run the Human starts reaches bee past the bound (the plan bounds it).
    const human = await owner.api.workflows.startRun({ planId: plan.id, target });
    await waitFor('the Human-started step turn', async () => readLog(log('bee')).some((e) => e.ev === 'start' && e.messageId === human.steps[0]!.messageId));
    assert.equal((await notices()).length, 1, 'one notice');
  } finally {
    agent.close();
  }
});

test('owner + two failing agents in a group DM: one Human message gives exactly one notice per agent and no further turns', async () => {
  const x = await addTurnAgent(d, 'xfail', log('xfail'), 'fail');
  const y = await addTurnAgent(d, 'yfail', log('yfail'), 'fail');
  const dm = `dm:${(await owner.api.channels.openDm({ memberIds: [x.id, y.id] })).id}`;
  await post(d, dm, 'hello you two');
  await waitFor('both notices', async () => (await messages(d, dm)).filter((m) => m.kind === 'notice').length >= 2);
  await new Promise((r) => setTimeout(r, 1500));
  const all = await messages(d, dm);
  // Before notices were a stored kind: 8 failure notices and a loop notice (each notice started the other agent's turn).
  assert.equal(all.length, 3, all.map((m) => `${m.author.name}: ${m.content}`).join('\n'));
  assert.deepEqual(all.slice(1).map((m) => m.kind).sort(), ['notice', 'notice']);
  assert.deepEqual(new Set(all.slice(1).map((m) => m.author.id)), new Set([x.id, y.id]));
  for (const n of ['xfail', 'yfail']) assert.equal(readLog(log(n)).filter((e) => e.ev === 'start').length, 1, `${n} ran once`);
});
