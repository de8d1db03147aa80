// Tests message_history_read against the real server: paging equals a full scan, budget-driven shrinking, bounded and legacy messages.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { MessageDto } from '../../domains/message/contract.js';
import { RESULT_BUDGET_BYTES } from '../../wire/mcp/resultbudget/budget.js';
import { createAgentteamHandler } from './handler.js';
import { startToolsFixture, structured, type ToolsFixture, testToolDeps } from './testkit.js';

let fx: ToolsFixture;
const h = createAgentteamHandler(testToolDeps());
const call = (args: unknown) => h.callTool(fx.ctx(), fx.agentId, 'message_history_read', args);

async function fullScan(target: string): Promise<MessageDto[]> {
  const all: MessageDto[] = [];
  let cursor: string | undefined;
  do {
    const page = await fx.srv.owner.messages.list(cursor ? { target, limit: 100, cursor } : { target, limit: 100 });
    all.push(...page.messages);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

async function pageAll(target: string, limit?: number): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const args: Record<string, unknown> = { target };
    if (limit !== undefined) args.limit = limit;
    if (cursor) args.cursor = cursor;
    const r = await call(args);
    assert.equal(r.isError, undefined);
    assert.ok(Buffer.byteLength(JSON.stringify(r)) <= RESULT_BUDGET_BYTES);
    const s = structured(r);
    ids.push(...s.messages.map((m: { id: string }) => m.id));
    pages.push(s.messages.length);
    assert.equal(s.hasMore, s.nextCursor !== undefined);
    if (!s.hasMore) break;
    cursor = s.nextCursor;
  }
  return { ids, pages };
}

before(async () => {
  fx = await startToolsFixture();
  await fx.srv.owner.channels.create({ id: 'busy' });
  await fx.srv.owner.channels.addMember({ channelId: 'busy', memberId: fx.agentId });
  for (let i = 0; i < 250; i++) await fx.srv.owner.messages.send({ target: 'channel:busy', content: `message ${i}` });
  await fx.srv.owner.channels.create({ id: 'wordy' });
  await fx.srv.owner.channels.addMember({ channelId: 'wordy', memberId: fx.agentId });
  // 60 messages of 2,000 quote characters: JSON escaping makes any page of 100 far larger than 64 KiB.
  for (let i = 0; i < 60; i++) await fx.srv.owner.messages.send({ target: 'channel:wordy', content: `${i}:${'"'.repeat(2000)}` });
});
after(async () => {
  await fx.stop();
});

test('paging 250 messages with limit 100 (and the default 20) equals the full scan, newest first', async () => {
  const scan = (await fullScan('channel:busy')).map((m) => m.id);
  assert.equal(scan.length, 250);
  const big = await pageAll('channel:busy', 100);
  assert.deepEqual(big.ids, scan);
  assert.deepEqual(big.pages, [100, 100, 50]);
  const small = await pageAll('channel:busy');
  assert.deepEqual(small.ids, scan);
  assert.equal(small.pages[0], 20);
  const first = structured(await call({ target: 'channel:busy', limit: 1 }));
  assert.equal(first.messages[0].content, 'message 249');
  assert.equal(first.messages[0].target, undefined, 'the target is not repeated per message');
});

test('pages that would exceed 64 KiB shrink and still continue exactly: the paged walk equals the full scan', async () => {
  const scan = (await fullScan('channel:wordy')).map((m) => m.id);
  const walk = await pageAll('channel:wordy', 100);
  assert.deepEqual(walk.ids, scan);
  assert.ok(walk.pages[0]! < 60 && walk.pages[0]! > 0, `first page shrank to ${walk.pages[0]}`);
});

test('a message can never exceed the budget: oversized content is refused, one stored by an older version reads back clipped and the walk goes on', async () => {
  await fx.srv.owner.channels.create({ id: 'huge' });
  await fx.srv.owner.channels.addMember({ channelId: 'huge', memberId: fx.agentId });
  const older = await fx.srv.owner.messages.send({ target: 'channel:huge', content: 'small and older' });
  // 2,000 control characters are 12,000 bytes once escaped: over the 8,000-byte content bound (fails before: accepted).
  await assert.rejects(fx.srv.owner.messages.send({ target: 'channel:huge', content: '\u0001'.repeat(2000) }), (e: Error & { code?: string }) => e.code === 'validation_failed' && /content is 12000 bytes as JSON; the limit is 8000 bytes/.test(e.message));
  const huge = await fx.srv.owner.messages.send({ target: 'channel:huge', content: 'to be made huge' });
  // As an older version could have stored it: 30,000 control characters (180 KB escaped).
  assert.equal(await fx.srv.runSql('UPDATE messages SET content = ? WHERE id = ?', ['\u0001'.repeat(30_000), huge.id]), 1);
  assert.deepEqual((await pageAll('channel:huge')).ids, [huge.id, older.id], 'the walk goes on past it');
  const s = structured(await call({ target: 'channel:huge', limit: 1 }));
  assert.equal(s.messages[0].id, huge.id);
  assert.ok(s.messages[0].content.endsWith('…[truncated]'));
  assert.ok(Buffer.byteLength(JSON.stringify(s.messages[0].content)) <= 8002);
});

test('bad targets, limits and cursors are model-visible errors', async () => {
  assert.equal(structured(await call({ target: 'busy' })).code, 'invalid_input');
  assert.equal(structured(await call({ target: 'channel:busy', limit: 0 })).code, 'invalid_input');
  assert.equal(structured(await call({ target: 'channel:busy', limit: 101 })).code, 'invalid_input');
  assert.equal(structured(await call({ target: 'channel:busy', cursor: 'forged' })).code, 'validation_failed');
  const other = structured(await call({ target: 'channel:busy', limit: 5 })).nextCursor as string;
  assert.equal(structured(await call({ target: 'channel:general', cursor: other })).code, 'validation_failed');
  await fx.srv.owner.channels.create({ id: 'closed' });
  assert.equal(structured(await call({ target: 'channel:closed' })).code, 'not_found');
});
