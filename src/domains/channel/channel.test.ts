// Tests the channel domain's membership management on the real server: owner and admins add and remove members; others cannot.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../../server-client/api.js';
import { ServerCallError } from '../../server-client/client.js';
import { startTestServer, type TestServer } from '../test-server.js';

let t: TestServer;
let agent: ServerApi;
let agentId: string;

before(async () => {
  t = await startTestServer();
  const a = await t.owner.members.createAgent({ name: 'helper' });
  agent = t.client.as(a.credential);
  agentId = a.agent.id;
});
after(async () => t.stop());

async function fails(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (e) => e instanceof ServerCallError && e.code === code && (!message || message.test(e.message)));
}
const members = async (channel: string) => (await t.querySql<{ member_id: string }>('SELECT member_id FROM channel_members WHERE channel_id = ? ORDER BY member_id', [channel])).map((r) => r.member_id);

test('the owner removes a member from a channel: it no longer lists or reads it, and its messages stay', async () => {
  await t.owner.channels.create({ id: 'crew' });
  await t.owner.channels.addMember({ channelId: 'crew', memberId: agentId });
  await agent.messages.send({ target: 'channel:crew', content: 'agent was here' });
  assert.deepEqual(await t.owner.channels.removeMember({ channelId: 'crew', memberId: agentId }), { channelId: 'crew', memberId: agentId });
  assert.deepEqual(await members('crew'), [t.ownerId]);
  assert.deepEqual((await agent.channels.list()).map((c) => c.id), []);
  await fails(agent.messages.list({ target: 'channel:crew' }), 'not_found');
  assert.deepEqual((await t.owner.messages.list({ target: 'channel:crew' })).messages.map((m) => m.content), ['agent was here']);
  // Added back: a member again.
  await t.owner.channels.addMember({ channelId: 'crew', memberId: agentId });
  assert.deepEqual((await agent.channels.list()).map((c) => c.id), ['crew']);
});

test('removing a member who is not in the channel, from a channel that does not exist, or as a non-admin changes nothing', async () => {
  await t.owner.channels.create({ id: 'quiet' });
  await fails(t.owner.channels.removeMember({ channelId: 'quiet', memberId: agentId }), 'not_found', /is not in channel quiet/);
  await fails(t.owner.channels.removeMember({ channelId: 'nowhere', memberId: agentId }), 'not_found', /channel nowhere not found/);
  await t.owner.channels.addMember({ channelId: 'quiet', memberId: agentId });
  await fails(agent.channels.removeMember({ channelId: 'quiet', memberId: agentId }), 'denied');
  await fails(agent.channels.removeMember({ channelId: 'quiet', memberId: t.ownerId }), 'denied');
  assert.deepEqual(await members('quiet'), [agentId, t.ownerId].sort());
});

test('an admin manages channels like the owner', async () => {
  const inv = await t.owner.members.invite({ name: 'Ada', role: 'admin' });
  const ada = t.client.as((await t.client.join(inv.code)).credential);
  await ada.channels.create({ id: 'admins' });
  await ada.channels.addMember({ channelId: 'admins', memberId: agentId });
  await ada.channels.removeMember({ channelId: 'admins', memberId: agentId });
  assert.equal((await members('admins')).includes(agentId), false);
});
