// Tests that a listed page gives every message exactly its own reactions and attachments, in order (batched hydration).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../server-client/api.js';
import { startTestServer, tickingClock, type TestServer, uploadBytes } from '../domains/test-server.js';

let t: TestServer;
let agent: ServerApi;
let agentId: string;

before(async () => {
  t = await startTestServer({ clock: tickingClock() });
  const a = await t.owner.members.createAgent({ name: 'reactor' });
  agent = t.client.as(a.credential);
  agentId = a.agent.id;
  await t.owner.channels.addMember({ channelId: 'general', memberId: agentId });
});
after(async () => t.stop());

test('7 messages with mixed reactions and attachments list with each its own, in per-message order', async () => {
  const sent = [];
  for (let i = 0; i < 7; i++) {
    const attachmentIds = [];
    for (let j = 0; j < i % 3; j++) attachmentIds.push(await uploadBytes(agent, `f${i}-${j}.txt`, 'text/plain', Buffer.from('x'.repeat(i + j))));
    sent.push(await agent.messages.send({ target: 'channel:general', content: `m${i}`, ...(attachmentIds.length ? { attachmentIds } : {}) }));
  }
  const [m0, m1, , m3, , m5] = sent;
  // Emoji order is by emoji; within one emoji, by who reacted first.
  await t.owner.messages.react({ messageId: m1!.id, emoji: 'zz' });
  await agent.messages.react({ messageId: m1!.id, emoji: 'aa' });
  await agent.messages.react({ messageId: m1!.id, emoji: 'zz' });
  await t.owner.messages.react({ messageId: m1!.id, emoji: 'aa' });
  await agent.messages.react({ messageId: m3!.id, emoji: 'ok' });
  await t.owner.messages.react({ messageId: m5!.id, emoji: 'ok' });
  await t.owner.messages.react({ messageId: m0!.id, emoji: 'gone' });
  await t.owner.messages.react({ messageId: m0!.id, emoji: 'gone', remove: true });

  const expectedReactions: Record<string, unknown[]> = {
    [m1!.id]: [
      { emoji: 'aa', count: 2, memberIds: [agentId, t.ownerId] },
      { emoji: 'zz', count: 2, memberIds: [t.ownerId, agentId] },
    ],
    [m3!.id]: [{ emoji: 'ok', count: 1, memberIds: [agentId] }],
    [m5!.id]: [{ emoji: 'ok', count: 1, memberIds: [t.ownerId] }],
  };
  for (const limit of [3, 7, 100]) {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.owner.messages.list({ target: 'channel:general', limit, ...(cursor ? { cursor } : {}) });
      for (const m of page.messages) {
        const i = sent.findIndex((s) => s.id === m.id);
        if (i < 0) continue; // the general channel may hold other messages
        seen.push(m.id);
        assert.equal(m.content, `m${i}`);
        assert.deepEqual(m.reactions, expectedReactions[m.id] ?? [], `reactions of m${i}`);
        assert.deepEqual(m.attachments.map((a) => [a.name, a.size, a.contentType]), Array.from({ length: i % 3 }, (_, j) => [`f${i}-${j}.txt`, i + j, 'text/plain']), `attachments of m${i}`);
        assert.deepEqual(m.attachments.map((a) => a.id), sent[i]!.attachments.map((a) => a.id));
      }
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, sent.map((s) => s.id).reverse(), `newest first at limit ${limit}`);
  }
});
