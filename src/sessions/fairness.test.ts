// Unit-tests the turn queue's fairness and bounds: round-robin across agents and sessions whatever one agent's backlog,
// the per-agent bound on queued turns (skipped: backlog, one notice), and the per-target notice rate bound.
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
import { TurnEngine, type TurnEngineOptions } from './engine.js';
import { NOTICE_WINDOW_MS, TurnJournal, type TurnRow } from './journal.js';

const profile = (id: string): AgentProfile => ({ id, name: id, runtime: 'command', createdAt: '', credential: 'x' });

function turn(seq: number, target: string): TurnDto {
  return { seq, messageId: `msg_${seq}`, target, targetType: 'channel', author: { id: 'h', name: 'owner', kind: 'human' }, content: 'hi', createdAt: '', agentRun: 0 };
}

interface Sent {
  target: string;
  content: string;
  kind?: string;
}

/** A feed per agent that the test feeds with push(); reads wait until a page is pushed (or the read is aborted). */
function harness(ids: string[], opts: TurnEngineOptions, run: (a: AgentProfile, t: TurnRow) => Promise<TurnRun>) {
  const dir = mkdtempSync(join(tmpdir(), 'fair-'));
  const journal = new TurnJournal(join(dir, 'sessions.db'));
  const clock = new FakeClock();
  const agents = ids.map(profile);
  const pages = new Map<string, TurnDto[][]>();
  const waiting = new Map<string, () => void>();
  const sent: Sent[] = [];
  const apiOf = (a: AgentProfile): ServerApi =>
    ({
      turns: {
        read: async (_i: unknown, o?: { signal?: AbortSignal }) => {
          for (;;) {
            const p = pages.get(a.id)?.shift();
            if (p) return { turns: p, cursor: p.at(-1)!.seq };
            await new Promise<void>((r, rej) => {
              waiting.set(a.id, r);
              o?.signal?.addEventListener('abort', () => rej(new Error('aborted')));
            });
          }
        },
      },
      messages: {
        send: async (m: Sent) => {
          sent.push(m);
          return {};
        },
      },
    }) as unknown as ServerApi;
  const engine = new TurnEngine(
    { journal, clock, log: pino({ level: 'silent' }), agents: () => agents, agent: (id) => agents.find((a) => a.id === id), apiOf, killOrphan: () => false, run: (a, t) => run(a, t) },
    opts,
  );
  return {
    journal,
    clock,
    engine,
    sent,
    push(agentId: string, turns: TurnDto[]) {
      pages.set(agentId, [...(pages.get(agentId) ?? []), turns]);
      waiting.get(agentId)?.();
    },
    async done() {
      await engine.stop();
      journal.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One turn of the event loop (no wall-clock sleep). */
const settle = () => new Promise((r) => setImmediate(r));
async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 5000; i++) {
    if (ok()) return;
    await settle();
  }
  throw new Error(`never: ${what}`);
}
const ok: TurnRun = { runId: 'r', code: 0, signal: null, timedOut: false };

test("a 10,000-turn backlog on one agent delays another agent's turn by at most the one turn running", async () => {
  const started: string[] = [];
  const h = harness(['a1', 'a2'], { maxConcurrent: 1, maxQueued: 20_000 }, async (a, t) => {
    started.push(`${a.id}/${t.messageId}`);
    await settle();
    return ok;
  });
  // The backlog spans one busy session and many others, so every pick has plenty of a1 candidates.
  h.push('a1', Array.from({ length: 10_000 }, (_, i) => turn(i + 1, i % 2 === 0 ? 'channel:big' : `channel:t${i % 50}`)));
  h.engine.start();
  await until('a1 is running its backlog', () => started.length >= 5);
  const arrivedAt = started.length;
  h.push('a2', [turn(20_001, 'channel:x')]);
  await until('the victim ran, or 20 more backlog turns did', () => started.includes('a2/msg_20001') || started.length > arrivedAt + 20);
  // The victim starts right after the turn running when it arrived (one turn's time), before a1's next turns.
  const at = started.indexOf('a2/msg_20001');
  assert.ok(at >= 0 && at <= arrivedAt + 1, `victim started at ${at}, arrived at ${arrivedAt}`);
  await h.done();
});

test("one agent's sessions take turns round-robin: a session with a long queue does not hold back a new one", async () => {
  const started: string[] = [];
  const h = harness(['a1'], { maxConcurrent: 1 }, async (_a, t) => {
    started.push(t.target);
    await settle();
    return ok;
  });
  h.push('a1', [...Array.from({ length: 20 }, (_, i) => turn(i + 1, 'channel:long')), turn(21, 'channel:b'), turn(22, 'channel:c')]);
  h.engine.start();
  await until('four turns', () => started.length >= 4);
  assert.deepEqual(started.slice(0, 3).sort(), ['channel:b', 'channel:c', 'channel:long']);
  await h.done();
});

test('past the per-agent bound new turns are recorded skipped (backlog) with exactly one notice', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const h = harness(['a1'], { maxConcurrent: 1, maxQueued: 3 }, async () => (await gate, ok));
  h.engine.start();
  h.push('a1', Array.from({ length: 8 }, (_, i) => turn(i + 1, 'channel:x')));
  await until('the backlog notice', () => h.sent.length >= 1);
  for (let i = 0; i < 50; i++) await settle();
  const all = h.journal.recent('a1', 20);
  assert.equal(all.filter((t) => t.outcome === 'backlog' && t.status === 'skipped').length, 5);
  assert.equal(all.filter((t) => t.status === 'queued' || t.status === 'running').length, 3);
  assert.equal(h.sent.length, 1);
  assert.equal(h.sent[0]!.kind, 'notice');
  assert.match(h.sent[0]!.content, /^a1 is behind: 3 turns are queued/);
  // A flood past the bound is recorded but bounded: beyond the newest 500 only unfinished turns stay, and the new
  // backlog's first skip (seq 101, after seq 100 took the free queue place), whose notice is due.
  h.journal.accept('a1', Array.from({ length: 700 }, (_, i) => turn(100 + i, `channel:f${i}`)), 799, 0, 3);
  assert.deepEqual(h.journal.recent('a1', 2000).slice(500).map((t) => [t.seq, t.status]), [[101, 'skipped'], [100, 'queued'], [3, 'queued'], [2, 'queued'], [1, 'running']]);
  release();
  await h.done();
});

test('notices are rate-bounded per agent and target: one a minute; the newest held one is posted when the minute ends, with the repeats counted (failed before: a held notice was dropped)', async () => {
  const h = harness(['a1'], { maxConcurrent: 1 }, async () => ({ runId: 'r', code: 3, signal: null, timedOut: false }));
  h.engine.start();
  h.push('a1', [turn(1, 'channel:x'), turn(2, 'channel:x'), turn(3, 'channel:x'), turn(4, 'channel:y')]);
  await until('four failed turns', () => h.journal.recent('a1', 10).filter((t) => t.status === 'failed').length === 4);
  for (let i = 0; i < 50; i++) await settle();
  assert.deepEqual(h.sent.map((m) => m.target), ['channel:x', 'channel:y'], 'one notice per target in the minute');
  const firstAt = h.clock.now();
  const text = 'a1 could not answer (exit_nonzero): the runtime exited with code 3';
  // The minute ends: turn 3's notice (the newest held) is posted, counting turn 2's as a repeat.
  h.clock.advance(NOTICE_WINDOW_MS);
  await until('the held notice', () => h.sent.length === 3);
  assert.equal(h.sent[2]!.target, 'channel:x');
  assert.equal(h.sent[2]!.content, `${text} (1 more since ${new Date(firstAt).toISOString().slice(11, 19)}Z)`);
  // A later failure inside the new window is held too, and posted alone when that window ends.
  h.push('a1', [turn(5, 'channel:x')]);
  await until('turn 5 failed', () => h.journal.recent('a1', 10).filter((t) => t.status === 'failed').length === 5);
  for (let i = 0; i < 50; i++) await settle();
  assert.equal(h.sent.length, 3, 'held inside the window');
  h.clock.advance(NOTICE_WINDOW_MS);
  await until('the next notice', () => h.sent.length === 4);
  assert.equal(h.sent[3]!.content, text);
  assert.ok(h.sent.every((m) => m.kind === 'notice'));
  assert.equal(h.journal.noticesPending().length, 0);
  await h.done();
});
