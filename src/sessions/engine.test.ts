// Unit-tests the turn engine with a fake feed and a fake runtime: resume ids per session, the concurrency bound, crash recovery.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import pino from 'pino';
import type { AgentProfile } from '../home/profiles.js';
import type { TurnRun } from '../runtime/launcher.js';
import type { ServerApi } from '../server-client/api.js';
import type { TurnDto } from '../domains/turn/contract.js';
import { FakeClock } from '../shared/clock.js';
import { TurnEngine } from './engine.js';
import { TurnJournal, type TurnRow } from './journal.js';

const agents: AgentProfile[] = ['a1', 'a2', 'a3'].map((id) => ({ id, name: id, runtime: 'command', createdAt: '', credential: 'x' }));

function turn(seq: number, target: string): TurnDto {
  return { seq, messageId: `msg_${seq}`, target, targetType: 'channel', author: { id: 'h', name: 'owner', kind: 'human' }, content: 'hi', createdAt: '', agentRun: 0 };
}

/** A feed that hands out `pages[agentId]` once, then waits until aborted; sendMessage calls are recorded. */
function fakeApi(pages: Record<string, TurnDto[]>, sent: Array<{ target: string; content: string; key?: string }>) {
  return (a: AgentProfile): ServerApi =>
    ({
      turns: {
      read: async (_i: unknown, o?: { signal?: AbortSignal }) => {
        const p = pages[a.id];
        if (p) {
          delete pages[a.id];
          return { turns: p, cursor: p.at(-1)!.seq };
        }
        return new Promise((_r, rej) => o?.signal?.addEventListener('abort', () => rej(new Error('aborted'))));
      },
      },
      messages: {
      send: async (m: { target: string; content: string }, o?: { idempotencyKey?: string }) => {
        sent.push({ ...m, key: o?.idempotencyKey });
        return {};
      },
      },
    }) as unknown as ServerApi;
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'engine-'));
  const journal = new TurnJournal(join(dir, 'sessions.db'));
  return { journal, done: () => (journal.close(), rmSync(dir, { recursive: true, force: true })) };
}

/** One turn of the event loop (no wall-clock sleep). */
const settle = () => new Promise((r) => setImmediate(r));

test("a runtime's resume id is kept per session and passed to that session's next turn only", async () => {
  const { journal, done } = setup();
  const seen: Array<[string, string | undefined]> = [];
  const sent: Array<{ target: string; content: string }> = [];
  const engine = new TurnEngine({
    journal,
    clock: new FakeClock(),
    log: pino({ level: 'silent' }),
    agents: () => [agents[0]!],
    agent: (id) => agents.find((a) => a.id === id),
    apiOf: fakeApi({ a1: [turn(1, 'channel:x'), turn(2, 'channel:y'), turn(3, 'channel:x')] }, sent),
    killOrphan: () => false,
    run: async (_a, t: TurnRow, _ms, resumeId): Promise<TurnRun> => {
      seen.push([t.messageId, resumeId]);
      return { runId: 'run', code: 0, signal: null, timedOut: false, resumeId: `rs-${t.messageId}` };
    },
  });
  engine.start();
  for (let i = 0; i < 500 && seen.length < 3; i++) await settle();
  await engine.stop();
  assert.deepEqual(seen, [['msg_1', undefined], ['msg_2', undefined], ['msg_3', 'rs-msg_1']]);
  assert.equal(journal.resumeId('a1', 'channel:x'), 'rs-msg_3');
  assert.equal(sent.length, 0);
  done();
});

test('concurrent turn runtimes never exceed maxConcurrent; every turn runs once', async () => {
  const { journal, done } = setup();
  let live = 0;
  let peak = 0;
  const ran: string[] = [];
  const engine = new TurnEngine(
    {
      journal,
      clock: new FakeClock(),
      log: pino({ level: 'silent' }),
      agents: () => agents,
      agent: (id) => agents.find((a) => a.id === id),
      apiOf: fakeApi({ a1: [turn(1, 'channel:x'), turn(4, 'channel:z')], a2: [turn(2, 'channel:x')], a3: [turn(3, 'channel:x')] }, []),
      killOrphan: () => false,
      run: async (a, t): Promise<TurnRun> => {
        live++;
        peak = Math.max(peak, live);
        await settle();
        live--;
        ran.push(`${a.id}/${t.messageId}`);
        return { runId: 'r', code: 0, signal: null, timedOut: false };
      },
    },
    { maxConcurrent: 2 },
  );
  engine.start();
  for (let i = 0; i < 500 && ran.length < 4; i++) await settle();
  await engine.stop();
  assert.equal(peak, 2);
  assert.deepEqual(ran.sort(), ['a1/msg_1', 'a1/msg_4', 'a2/msg_2', 'a3/msg_3']);
  done();
});

test('after a crash, a turn left running is failed as interrupted with one idempotent notice and is never re-run', async () => {
  const { journal, done } = setup();
  journal.accept('a1', [turn(1, 'channel:x'), turn(2, 'channel:x')], 2, 0);
  const cut = journal.queued()[0]!;
  journal.markRunning(cut.turnId, 1);
  journal.setRun(cut.turnId, 'run_1', 4242, '777');
  const killed: string[] = [];
  const ran: string[] = [];
  const sent: Array<{ target: string; content: string; key?: string }> = [];
  const engine = new TurnEngine({
    journal,
    clock: new FakeClock(),
    log: pino({ level: 'silent' }),
    agents: () => [agents[0]!],
    agent: (id) => agents.find((a) => a.id === id),
    apiOf: fakeApi({}, sent),
    killOrphan: (pid, start) => (killed.push(`${pid}/${start}`), true),
    run: async (_a, t): Promise<TurnRun> => {
      ran.push(t.messageId);
      return { runId: 'r', code: 0, signal: null, timedOut: false };
    },
  });
  engine.start();
  for (let i = 0; i < 500 && (ran.length < 1 || sent.length < 1); i++) await settle();
  await engine.stop();
  assert.deepEqual(ran, ['msg_2']);
  assert.deepEqual(killed, ['4242/777'], 'the orphaned runtime of the cut-off turn is stopped');
  assert.deepEqual(sent, [{ target: 'channel:x', content: 'a1 could not answer (interrupted): the daemon stopped while this turn ran', kind: 'notice', key: `turn-notice-${cut.turnId}` }]);
  assert.equal(journal.get(cut.turnId)!.outcome, 'interrupted');
  assert.equal(journal.noticesPending().length, 0);
  // The same page read again (a cursor that did not move before a crash) queues nothing twice.
  assert.deepEqual(journal.accept('a1', [turn(1, 'channel:x'), turn(2, 'channel:x')], 2, 3), []);
  done();
});

test('a disabled agent is not followed and its queued turns wait; enabling runs them; a turn whose agent was removed mid-run posts no notice', async () => {
  const { journal, done } = setup();
  const ran: string[] = [];
  const sent: Array<{ target: string; content: string }> = [];
  const profile: AgentProfile = { ...agents[0]!, enabled: false };
  let configured: AgentProfile | undefined = profile;
  let release!: () => void;
  const engine = new TurnEngine({
    journal,
    clock: new FakeClock(),
    log: pino({ level: 'silent' }),
    agents: () => (configured ? [configured] : []),
    agent: () => configured,
    apiOf: fakeApi({ a1: [turn(1, 'channel:x'), turn(2, 'channel:y')] }, sent),
    killOrphan: () => false,
    run: async (_a, t: TurnRow): Promise<TurnRun> => {
      ran.push(t.messageId);
      if (t.messageId === 'msg_2') await new Promise<void>((r) => (release = r));
      return { runId: 'run', code: 1, signal: null, timedOut: false };
    },
  });
  engine.start();
  for (let i = 0; i < 50; i++) await settle();
  assert.equal(journal.cursor('a1'), 0, 'a disabled agent\'s feed is not read');
  journal.accept('a1', [turn(1, 'channel:x'), turn(2, 'channel:y')], 2, 0);
  engine.unfollow('a1');
  engine.follow({ ...profile, enabled: false });
  for (let i = 0; i < 50; i++) await settle();
  assert.deepEqual(ran, [], 'queued turns of a disabled agent wait');
  configured = { ...profile, enabled: true };
  engine.follow(configured);
  for (let i = 0; i < 500 && ran.length < 2; i++) await settle();
  assert.deepEqual(ran.sort(), ['msg_1', 'msg_2']);
  for (let i = 0; i < 500 && sent.length < 1; i++) await settle();
  assert.equal(sent.length, 1, 'the failed turn of a configured agent posts its notice');
  configured = undefined; // removed while msg_2 runs
  release();
  for (let i = 0; i < 200; i++) await settle();
  await engine.stop();
  assert.equal(sent.length, 1, 'no notice as an agent that was removed');
  assert.equal(journal.recent('a1', 5).find((t) => t.messageId === 'msg_2')?.outcome, 'interrupted');
  done();
});
