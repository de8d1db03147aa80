// Tests the turn feed on two AgentTeam Servers sharing one PostgreSQL database: concurrent posts through both are each
// one turn, in one gap-free order, with agents reading through either server while the posts land.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../../src/server-client/api.js';
import { ServerClient } from '../../src/server-client/client.js';
import { startServer, type RunningServer } from '../../src/server/main.js';
import { TEST_ADMIN_TOKEN } from '../../src/domains/test-server.js';
import { startCluster, type Cluster } from './cluster.js';
import { DOMAINS, serverClient } from '../../src/domains/registry.js';

let cluster: Cluster;
let a: RunningServer;
let b: RunningServer;
let ca: ServerClient;
let cb: ServerClient;

before(async () => {
  cluster = await startCluster();
  const db = await cluster.createDatabase();
  a = await startServer({ domains: DOMAINS,  db, adminToken: TEST_ADMIN_TOKEN });
  b = await startServer({ domains: DOMAINS,  db, adminToken: TEST_ADMIN_TOKEN });
  ca = serverClient({ baseUrl: a.url });
  cb = serverClient({ baseUrl: b.url });
});
after(async () => {
  ca?.close();
  cb?.close();
  await a?.close();
  await b?.close();
  await cluster?.stop();
});

test('mentions posted concurrently through two servers each become exactly one turn, read in one gap-free order', async () => {
  const boot = await ca.bootstrap(TEST_ADMIN_TOKEN, { ownerName: 'Owner' });
  const ownerA = ca.as(boot.ownerCredential!);
  const ownerB = cb.as(boot.ownerCredential!);
  const agent = await ownerA.members.createAgent({ name: 'pg-agent' });
  await ownerA.channels.addMember({ channelId: 'general', memberId: agent.agent.id });
  const readers: ServerApi[] = [ca.as(agent.credential), cb.as(agent.credential)];
  const seen: string[] = [];
  let cursor = 0;
  let posting = true;
  // The agent reads through alternating servers while the posts land.
  const reading = (async () => {
    for (let i = 0; i < 2000 && (posting || seen.length < 40); i++) {
      const page = await readers[i % 2]!.turns.read({ after: cursor, waitMs: 200 });
      assert.ok(page.cursor >= cursor);
      for (const t of page.turns) seen.push(t.messageId);
      cursor = page.cursor;
    }
  })();
  const sent = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? ownerA : ownerB).messages.send({ target: 'channel:general', content: `@pg-agent n${i}` })));
  await ownerA.messages.send({ target: 'channel:general', content: 'not addressed' });
  posting = false;
  await reading;
  assert.equal(seen.length, 40);
  assert.deepEqual([...seen].sort(), sent.map((m) => m.id).sort());
  const again = await readers[0]!.turns.read({ after: 0 });
  assert.deepEqual(again.turns.map((t) => t.messageId), seen, 'a fresh read from the start returns the same order');
});
