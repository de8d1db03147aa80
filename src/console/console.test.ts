// Tests the console's pieces on a FakeClock: one-time links and sessions, denial classes, route metrics, and the store's secret-free view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../shared/clock.js';
import { RateLimitedLogger } from '../shared/rate-limited-log.js';
import { faultyFs, makeStore, readToken, sampleInput } from '../authz/testkit.js';
import { DenialCounts, denialClass } from './denials.js';
import { BUCKET_MS, familyOf, RouteMetrics } from './metrics.js';
import { ConsoleAuth, LINK_TTL_MS, SESSION_TTL_MS } from './sessions.js';
import { ConsoleReads } from './read-models.js';
import { streamEvents, TICK_MS } from './events.js';
import { BOARD_PAGE, clip, ConsoleBoards, NESTED, TEXT_MAX } from './boards.js';
import type { ServerApi } from '../server-client/api.js';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';

test('a login link is spent by its first use and dies unused after its TTL; a session lives its TTL and ends on logout', () => {
  const clock = new FakeClock();
  const auth = new ConsoleAuth(clock);
  const link = auth.issueLink();
  const s = auth.redeem(link);
  assert.ok(s);
  assert.equal(auth.redeem(link), undefined, 'spent');
  assert.deepEqual(auth.session(s.sessionId), s.session);
  const late = auth.issueLink();
  clock.advance(LINK_TTL_MS);
  assert.equal(auth.redeem(late), undefined, 'expired');
  for (const bad of [undefined, '', 'x', link.slice(0, -1) + (link.endsWith('A') ? 'B' : 'A'), `${link}x`]) assert.equal(auth.redeem(bad), undefined);
  clock.advance(SESSION_TTL_MS - LINK_TTL_MS - 1);
  assert.ok(auth.session(s.sessionId), 'still live');
  clock.advance(1);
  assert.equal(auth.session(s.sessionId), undefined, 'the session expired');
  const t = auth.redeem(auth.issueLink())!;
  auth.end(t.sessionId);
  assert.equal(auth.session(t.sessionId), undefined, 'logged out');
});

test('CSRF tokens are per session and compared whole', () => {
  const auth = new ConsoleAuth(new FakeClock());
  const a = auth.redeem(auth.issueLink())!;
  const b = auth.redeem(auth.issueLink())!;
  assert.notEqual(a.session.csrf, b.session.csrf);
  assert.ok(ConsoleAuth.csrfMatches(a.session, a.session.csrf));
  for (const h of [undefined, '', b.session.csrf, a.session.csrf.slice(1), [a.session.csrf]]) assert.equal(ConsoleAuth.csrfMatches(a.session, h), false);
});

test('unspent links and sessions are bounded: the oldest goes first', () => {
  const auth = new ConsoleAuth(new FakeClock());
  const links = Array.from({ length: 17 }, () => auth.issueLink());
  assert.equal(auth.redeem(links[0]), undefined, 'the oldest of 17 links was dropped');
  assert.ok(auth.redeem(links[16]));
  const sessions = Array.from({ length: 33 }, () => auth.redeem(auth.issueLink())!);
  assert.equal(auth.session(sessions[0]!.sessionId), undefined);
  assert.ok(auth.session(sessions[32]!.sessionId));
});

test('denial classes drop authorization ids and count lines the rate limit dropped', () => {
  assert.equal(denialClass('authz:cleanup:rta_0123abc'), 'authz:cleanup');
  assert.equal(denialClass('auth:revoked'), 'auth:revoked');
  const clock = new FakeClock();
  const counts = new DenialCounts(clock);
  const written: string[] = [];
  const diag = new RateLimitedLogger(counts.wrap({ warn: (o) => void written.push(String(o.key)) }), clock, 2, 1);
  for (let i = 0; i < 5; i++) diag.warn('auth:unknown', {}, 'x');
  assert.equal(written.length, 2, 'the log itself is still rate-limited');
  clock.advance(1000);
  diag.warn('auth:unknown', {}, 'x');
  assert.deepEqual(counts.recent().map((c) => [c.class, c.count]), [['auth:unknown', 6]], 'the written line reports the 3 dropped');
  clock.advance(16 * 60_000);
  assert.deepEqual(counts.recent(), [], 'out of the 15-minute window');
});

test('route metrics: families, counts per 10-second bucket and p99, event streams left out', () => {
  assert.equal(familyOf('/api/internal/mcp/servers/s/agents/a'), 'mcp');
  assert.equal(familyOf('/api/internal/exec/servers/s/agents/a/task/list'), 'exec');
  assert.equal(familyOf('/api/daemon/status'), 'owner');
  assert.equal(familyOf('/console/api/state'), 'console');
  assert.equal(familyOf('/nope'), 'other');
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const m = new RouteMetrics(clock);
  for (let i = 1; i <= 100; i++) m.observe('/api/internal/mcp/x', i);
  m.observe('/console/api/events', 60_000);
  clock.advance(BUCKET_MS);
  m.observe('/api/internal/exec/x', 5);
  const snap = m.snapshot();
  const mcp = snap.find((s) => s.family === 'mcp')!.points;
  assert.equal(mcp.length, 30);
  assert.deepEqual(mcp.at(-2), { at: clock.now() - BUCKET_MS, count: 100, p99: 99 });
  assert.deepEqual(mcp.at(-1), { at: clock.now(), count: 0, p99: null });
  assert.equal(snap.find((s) => s.family === 'console')!.points.reduce((a, p) => a + p.count, 0), 0);
  assert.equal(snap.find((s) => s.family === 'exec')!.points.at(-1)!.count, 1);
});

test("the store's view names generations, expiry, in-flight and cleanup debt with its next retry, and holds no secret or path", async () => {
  let fail = true;
  const { store, clock, credentialsDir } = makeStore({ fs: faultyFs({ rmdir: () => fail }, 'EBUSY'), cleanupBackoff: { baseMs: 1_000, maxMs: 5_000 } });
  const a = await store.activate(sampleInput(1));
  const auth = store.authenticate(a.mcpToken);
  assert.ok(auth.ok);
  const lease = store.acquire(auth.info)!;
  const v = store.view();
  assert.equal(v.authorizations.length, 1);
  const av = v.authorizations[0]!;
  assert.equal(av.state, 'active');
  assert.equal(av.inFlight, 1);
  assert.equal(av.generations.length, 1);
  assert.ok(av.generations[0]!.current && av.generations[0]!.expiresAt > clock.now());
  assert.deepEqual(v.limits, { perAuthorization: 32, global: 1024, dispatcher: 512 });
  const text = JSON.stringify(v);
  for (const s of [a.mcpToken, a.mcpChildToken, readToken(a.execTokenFile), a.execTokenFile, credentialsDir]) assert.ok(!text.includes(s));
  lease.release();
  await store.revoke(a.info.id, 'exit');
  const debt = store.view().authorizations[0]!;
  assert.equal(debt.state, 'debt');
  assert.equal(debt.cleanupAttempts, 1);
  assert.equal(debt.nextCleanupAt, clock.now() + 1_000);
  fail = false;
  clock.advance(1_000);
  await store.whenIdle();
  assert.equal(store.view().authorizations.length, 0);
});

test('read models: a runtime shows its current turn and uptime; authorizations are named by agent; no workdir or pid reaches the page', () => {
  const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
  const startedAt = new Date(clock.now() - 90_000).toISOString();
  const reads = new ConsoleReads({
    clock,
    owner: () => {
      throw new Error('not used');
    },
    agents: () => [{ id: 'agt1', name: 'demo', runtime: 'claude', enabled: true }],
    runtimes: () => [{ runId: 'run_a', agentId: 'agt1', agentName: 'demo', runtime: 'claude', pid: 4242, processStartTime: '1', workdir: '/home/p/secret-project', startedAt, status: 'running', exitCode: null, signal: null }],
    authorizations: () => ({ authorizations: [{ id: 'rta_1', agentId: 'agt1', runId: 'run_a', runtimeKind: 'claude', state: 'active', generations: [{ generationId: 'gen_1', expiresAt: clock.now() + 1000, current: true }], inFlight: 3 }], inFlight: 3, records: 1, limits: { perAuthorization: 32, global: 1024, dispatcher: 512 } }),
    turns: () => [{ turnId: 't1', agentId: 'agt1', seq: 1, target: 'channel:general', targetType: 'channel', messageId: 'msg1', authorName: 'owner', authorKind: 'human', agentRun: 1, status: 'running', outcome: null, detail: null, runId: 'run_a', receivedAt: clock.now() - 31_000, startedAt: clock.now() - 30_000, finishedAt: null }],
    denials: new DenialCounts(clock),
    metrics: new RouteMetrics(clock),
  });
  const [r] = reads.runtimes();
  assert.equal(r!.uptimeMs, 90_000);
  assert.deepEqual(r!.turn, { target: 'channel:general', from: 'owner', sinceMs: 30_000 });
  const state = reads.state();
  assert.equal(state.credentials.authorizations[0]!.agentName, 'demo');
  assert.equal(state.turns[0]!.durationMs, 30_000);
  const text = JSON.stringify(state);
  assert.ok(!text.includes('secret-project') && !text.includes('4242'));
});

test('the event stream of a session that expires says so and ends (checked on every tick, not only at connect)', async () => {
  const clock = new FakeClock();
  const auth = new ConsoleAuth(clock);
  const { sessionId } = auth.redeem(auth.issueLink())!;
  const reads = { state: () => ({ tick: clock.now() }) } as unknown as ConsoleReads;
  const server = createServer((_q, res) => streamEvents(res, { reads, clock, live: () => auth.session(sessionId) !== undefined }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    let body = '';
    const ended = new Promise<void>((resolve, reject) => {
      get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (c: string) => void (body += c));
        res.on('end', resolve);
        res.on('error', reject);
      }).on('error', reject);
    });
    const until = async (what: string) => {
      for (let i = 0; i < 200 && !body.includes(what); i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(body.includes(what), `${what} in ${body}`);
    };
    await until('event: state');
    clock.advance(TICK_MS);
    await until(`"tick":${clock.now()}`);
    assert.ok(!body.includes('event: ended'), 'a live session streams on');
    clock.advance(SESSION_TTL_MS);
    await new Promise((r) => setTimeout(r, 20));
    clock.advance(TICK_MS);
    await ended;
    assert.match(body, /event: ended\ndata: \{"reason":"session"\}\n\n$/);
  } finally {
    server.close();
  }
});

test('a board page reads every item\'s nested list, says when one could not be read (never an empty list), and stays bounded in bytes', async () => {
  const big = (c: string, n: number) => c.repeat(n);
  const asked: Array<{ limit: number; cursor?: string }> = [];
  const api = {
    tasks: {
      list: async (q: { limit: number; cursor?: string }) => {
        asked.push(q);
        return { tasks: Array.from({ length: q.limit }, (_, i) => ({ id: `tsk${i + 1}`, title: big('\u{1F600}', 200), status: 'blocked', assignee: { name: big('n', 100) }, blockedReason: big('\u{1F600}', 2000), updatedAt: '2026-01-01T00:00:00.000Z' })), hasMore: true, nextCursor: 'c1~AAAA' };
      },
    },
    reviews: {
      list: async (q: { target: string; limit: number }) => {
        if (q.target === 'task:tsk13') throw Object.assign(new Error('x'), { code: 'upstream_unavailable' });
        return { reviews: Array.from({ length: q.limit }, (_, i) => ({ id: `rev${i + 1}`, verdict: 'comment', status: 'open', body: big('\u{1F600}', 12_000), author: { name: big('a', 100) } })), hasMore: true, nextCursor: 'r~BBBB' };
      },
    },
  };
  const boards = new ConsoleBoards(() => api as unknown as ServerApi);
  const page = (await boards.page('tasks')) as { items: Array<{ id: string; reviews: { items?: unknown[]; more?: boolean; error?: string } }>; nextCursor?: string };
  assert.equal(asked[0]!.limit, BOARD_PAGE);
  assert.equal(page.items.length, BOARD_PAGE);
  assert.equal(page.nextCursor, 'c1~AAAA');
  for (const t of page.items) {
    if (t.id === 'tsk13') assert.deepEqual(t.reviews, { error: 'upstream_unavailable' }, 'a failed nested read says so');
    else assert.equal(t.reviews.items!.length, NESTED.reviews, `${t.id}: its reviews were read`);
  }
  const bytes = Buffer.byteLength(JSON.stringify(page));
  assert.ok(bytes < 384 * 1024, `a page of the largest items is ${bytes} bytes`);
  assert.equal(Array.from(clip(big('\u{1F600}', 500))).length, TEXT_MAX + ' (cut)'.length + 1, 'cut by code point, marked');
  await assert.rejects(boards.page('tasks', 'not a cursor!'), /cursor is malformed/);
  await assert.rejects(boards.detail('reviews', '../x'), /item id is malformed/);
});
