// Property test (fast-check): random items at every byte bound; every Exec and MCP walk with random page sizes completes within 64 KiB per page and equals a full scan.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { CONTENT, EMOJI, MAX_REACTIONS } from './message/contract.js';
import { REVIEW_BODY } from './review/contract.js';
import { TASK_BOUNDS } from './task/contract.js';
import { RESULT_BUDGET, textBytes, TRUNCATED_MARKER, type TextBound } from '../shared/bounds.js';
import { createAgentteamHandler } from '../tools/agentteam/handler.js';
import { startToolsFixture, structured, type ToolsFixture } from '../tools/agentteam/testkit.js';
import { startExecHarness, type ExecHarness } from './test-exec.js';

/** Characters whose serialized size differs: plain, escaped (2 and 6 bytes), 2/3/4-byte UTF-8 and a surrogate pair. */
const UNITS = ['a', '"', '\\', '\n', '\u0001', '\u001f', 'é', '€', '\u2028', '😀'];
const unitsArb = fc.array(fc.constantFrom(...UNITS), { minLength: 1, maxLength: 4 });

/** A string cycling `units` up to the bound: exactly at it (or as close as the units allow), or one unit over. */
function atBound(b: Pick<TextBound, 'chars' | 'bytes'>, units: string[], over: boolean): string {
  let s = '';
  let bytes = 0;
  for (let i = 0; ; i++) {
    const u = units[i % units.length]!;
    const n = textBytes(u);
    if (bytes + n > b.bytes || s.length + u.length > b.chars) return over ? s + 'x'.repeat(b.bytes - bytes + 1) : s;
    s += u;
    bytes += n;
  }
}

let x: ExecHarness;
let m: ToolsFixture;
const h = createAgentteamHandler();

before(async () => {
  [x, m] = await Promise.all([startExecHarness(), startToolsFixture()]);
});
after(async () => {
  await Promise.all([x?.stop(), m?.stop()]);
});

/** Walks an Exec list with the given page sizes (cycled); every page is a 200 within the budget. */
async function execWalk(domain: string, key: string, limits: number[], extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10_000; i++) {
    const r = await x.post(domain, 'list', { ...extra, limit: limits[i % limits.length], ...(cursor ? { cursor } : {}) });
    assert.equal(r.status, 200, r.raw.slice(0, 300));
    assert.ok(Buffer.byteLength(r.raw) <= RESULT_BUDGET);
    const page = r.body.data;
    ids.push(...page[key].map((t: { id: string }) => t.id));
    assert.equal(page.hasMore, page.nextCursor !== undefined);
    if (!page.hasMore) return ids;
    assert.ok(page[key].length > 0, 'a page with more always carries items');
    cursor = page.nextCursor;
  }
  throw new Error('walk did not end');
}

/** Raw server call with the owner's credential, bypassing the daemon client's own checks: the server is the enforcer. */
async function serverPost(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(`${x.server.server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${x.server.ownerCredential}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

const taskArb = fc.record({
  title: unitsArb,
  description: unitsArb,
  over: fc.constantFrom(null, 'title', 'description'),
  legacy: fc.boolean(),
});

test('tasks at every bound: over-bound fields are refused by daemon and server naming field and limit; every Exec walk equals a full scan', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(taskArb, { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 4 }), async (tasks, limits) => {
      for (const t of tasks) {
        const input = { title: atBound(TASK_BOUNDS.title, t.title, t.over === 'title'), description: atBound(TASK_BOUNDS.description, t.description, t.over === 'description') };
        const blank = input.title.trim() === '';
        const before = (await x.server.querySql<{ n: number }>('SELECT COUNT(*) AS n FROM tasks'))[0]!.n;
        const viaExec = await x.post('task', 'create', input);
        if (t.over || blank) {
          const field = blank ? 'title' : t.over!;
          assert.equal(viaExec.body.error.code, 'validation_failed', viaExec.raw.slice(0, 200));
          assert.match(viaExec.body.error.message, new RegExp(`^/?${field}\\b`));
          const direct = await serverPost('/v1/tasks', input);
          assert.equal(direct.json.error.code, 'validation_failed');
          assert.match(direct.json.error.message, new RegExp(`^/?${field}\\b.*(limit is ${TASK_BOUNDS[field as 'title'].bytes} bytes|characters|blank)`));
          assert.equal(Number((await x.server.querySql<{ n: number }>('SELECT COUNT(*) AS n FROM tasks'))[0]!.n), Number(before), 'nothing was stored');
          continue;
        }
        assert.equal(viaExec.status, 200, viaExec.raw.slice(0, 300));
        const id = viaExec.body.data.task.id as string;
        if (t.legacy) await x.server.runSql('UPDATE tasks SET description = ? WHERE id = ?', ['\u0001'.repeat(30_000), id]); // as an older version stored it
        const got = await x.post('task', 'get', { taskId: id });
        assert.equal(got.status, 200, got.raw.slice(0, 200));
        assert.ok(Buffer.byteLength(got.raw) <= RESULT_BUDGET);
        if (t.legacy) assert.ok(got.body.data.task.description.endsWith(TRUNCATED_MARKER));
        else assert.equal(got.body.data.task.description, input.description);
      }
      const scan = (await x.server.querySql<{ id: string }>('SELECT id FROM tasks ORDER BY created_at DESC, id DESC')).map((r) => r.id);
      assert.deepEqual(await execWalk('task', 'tasks', limits), scan);
    }),
    { numRuns: 5 },
  );
});

test('reviews at the bound on one task: every Exec review walk with random page sizes equals a full scan', async () => {
  const task = (await x.post('task', 'create', { title: 'reviewed' })).body.data.task.id as string;
  const target = `task:${task}`;
  await fc.assert(
    fc.asyncProperty(fc.array(unitsArb, { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 4 }), async (bodies, limits) => {
      for (const units of bodies) {
        const body = atBound(REVIEW_BODY, units, false);
        const r = await x.post('review', 'add', { target, verdict: 'comment', body: body.trim() ? body : `${body}x`.slice(1) + 'x' });
        assert.equal(r.status, 200, r.raw.slice(0, 200));
      }
      const scan = (await x.server.querySql<{ id: string }>('SELECT id FROM reviews WHERE target = ? ORDER BY updated_at DESC, id DESC', [target])).map((r) => r.id);
      assert.deepEqual(await execWalk('review', 'reviews', limits, { filters: { target } }), scan);
    }),
    { numRuns: 4 },
  );
});

test('messages at every bound (content, reactions): every MCP message_history_read walk with random page sizes equals a full scan', async () => {
  const target = 'channel:general';
  const msgArb = fc.record({ units: unitsArb, reactions: fc.integer({ min: 0, max: 3 }), legacy: fc.boolean() });
  await fc.assert(
    fc.asyncProperty(fc.array(msgArb, { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 4 }), async (msgs, limits) => {
      for (const g of msgs) {
        const content = atBound(CONTENT, g.units, false);
        const sent = await m.srv.owner.messages.send({ target, content: content.trim() ? content : `${content.slice(1)}x` });
        for (let i = 0; i < g.reactions * 7 && i < MAX_REACTIONS; i++) await m.srv.owner.messages.react({ messageId: sent.id, emoji: `${i}${atBound({ chars: EMOJI.chars, bytes: EMOJI.bytes - 2 }, ['😀'], false)}` });
        if (g.legacy) await m.srv.runSql('UPDATE messages SET content = ? WHERE id = ?', ['"'.repeat(60_000), sent.id]);
      }
      const scan = (await m.srv.querySql<{ id: string }>('SELECT id FROM messages WHERE target = ? ORDER BY created_at DESC, id DESC', [target])).map((r) => r.id);
      const ids: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; ; i++) {
        const r = await h.callTool(m.ctx(), m.agentId, 'message_history_read', { target, limit: limits[i % limits.length], ...(cursor ? { cursor } : {}) });
        assert.equal(r.isError, undefined, JSON.stringify(r).slice(0, 300));
        assert.ok(Buffer.byteLength(JSON.stringify(r)) <= RESULT_BUDGET);
        const s = structured(r);
        ids.push(...s.messages.map((x: { id: string }) => x.id));
        if (!s.hasMore) break;
        assert.ok(s.messages.length > 0);
        cursor = s.nextCursor;
      }
      assert.deepEqual(ids, scan);
    }),
    { numRuns: 4 },
  );
});

test(`a message takes at most ${MAX_REACTIONS} reactions: the next is validation_failed and changes nothing`, async () => {
  const msg = await m.srv.owner.messages.send({ target: 'channel:general', content: 'react to me' });
  for (let i = 0; i < MAX_REACTIONS; i++) await (i % 2 ? m.agent : m.srv.owner).messages.react({ messageId: msg.id, emoji: `e${i}` });
  await assert.rejects(m.agent.messages.react({ messageId: msg.id, emoji: 'one-too-many' }), (e: Error & { code?: string }) => e.code === 'validation_failed' && /at most 20/.test(e.message));
  const again = await m.srv.owner.messages.react({ messageId: msg.id, emoji: 'e0' }); // an existing reaction is still idempotent
  assert.equal(again.reactions.reduce((n, r) => n + r.count, 0), MAX_REACTIONS);
});
