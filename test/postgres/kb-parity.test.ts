// Full-text search parity on a real PostgreSQL 15 cluster: the same corpus and queries find the same sections on SQLite
// (FTS5 unicode61) and PostgreSQL (tsvector over pgIndexText), hostile queries never throw, and the GIN index serves the match.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import pg from 'pg';
import fc from 'fast-check';
import type { ServerApi } from '../../src/server-client/api.js';
import { startTestServer, type TestServer } from '../../src/domains/test-server.js';
import { startCluster, type Cluster } from './cluster.js';

interface Engine {
  t: TestServer;
  agent: ServerApi;
  bind: { serverId: string; target: string; targetType: string; messageId: string };
}

let cluster: Cluster;
let lite: Engine;
let post: Engine;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const CORPUS: Record<string, string> = {
  'host.md': '# Hosts\nThe docs live at example.com and api.example.com/v1/index.',
  'ver.md': '# Versions\nShip v1.2.3 after 2.0, then the release-train notes.',
  'names.md': '# Names\nfoo_bar and baz:qux, x+y, a/b/c, mail ops@corp.io.',
  'markup.md': '# Markup\nUse <secret>token</secret> & friends.',
  'intl.md': '# Café\nnaïve café, Ünïcödé; 日本語のテキスト; emoji😀word.',
  'dash.md': '# Dashes\nfoo—bar and wait…what',
};
const QUERIES = ['example', 'com', 'api', 'v1', 'index', '2', 'release', 'train', 'foo', 'bar', 'baz', 'qux', 'corp', 'ops', 'secret', 'token', 'cafe', 'café', 'NAIVE', 'unicode', '日本語のテキスト', 'emoji', 'word', 'wait', 'what', 'hosts'];

async function engine(db: string | undefined): Promise<Engine> {
  const prev = process.env.AGENTTEAM_TEST_DB;
  if (db) process.env.AGENTTEAM_TEST_DB = db;
  else delete process.env.AGENTTEAM_TEST_DB;
  try {
    const t = await startTestServer();
    const a = await t.owner.members.createAgent({ name: 'reader' });
    await t.owner.channels.addMember({ channelId: 'general', memberId: a.agent.id });
    const messageId = (await t.owner.messages.send({ target: 'channel:general', content: '@reader look this up' })).id;
    const src = await t.owner.knowledge.createSource({ name: 'corpus', kind: 'upload', scopes: ['channel:general'] });
    for (const [path, content] of Object.entries(CORPUS)) await t.owner.knowledge.putDocument({ sourceId: src.id, path, hash: sha(content), mtime: 1, content });
    return { t, agent: t.client.as(a.credential), bind: { serverId: t.server.serverId, target: 'channel:general', targetType: 'channel', messageId } };
  } finally {
    if (prev === undefined) delete process.env.AGENTTEAM_TEST_DB;
    else process.env.AGENTTEAM_TEST_DB = prev;
  }
}

const titles = async (e: Engine, query: string) => (await e.agent.knowledge.search({ ...e.bind, query, limit: 20 })).hits.map((h) => h.title).sort();

before(async () => {
  cluster = await startCluster();
  [lite, post] = await Promise.all([engine(undefined), engine(cluster.url)]);
  assert.match(post.t.db, /^postgres:\/\//);
  assert.doesNotMatch(lite.t.db, /^postgres:\/\//);
});
after(async () => {
  await Promise.all([lite?.t.stop(), post?.t.stop()]);
  await cluster?.stop();
});

test('every query finds the same sections on SQLite and PostgreSQL (hosts, versions, underscores, tags, diacritics, dashes)', async () => {
  for (const q of QUERIES) {
    const [a, b] = [await titles(lite, q), await titles(post, q)];
    assert.ok(a.length > 0, `SQLite finds ${q}`);
    assert.deepEqual(b, a, `query ${JSON.stringify(q)}`);
  }
  // Several words: any of them matches, and the section with more of them ranks first on both engines.
  for (const e of [lite, post]) {
    const hits = (await e.agent.knowledge.search({ ...e.bind, query: 'release train notes ship', limit: 3 })).hits;
    assert.equal(hits[0]!.title, 'Versions');
    assert.match(hits[0]!.snippet, /\[(release|train|notes|ship)\]/i);
  }
});

test('fuzz on PostgreSQL: tsquery syntax in a query is only words, never an error other than a classified validation failure', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.string({ minLength: 1, maxLength: 60 }), fc.constantFrom("a:* & !b", "foo | bar <-> baz", "'x' & 'y'", '!!!', 'a & (b', "it's", ':*', '\\', 'NEAR(a b)', '"quoted"')), async (q) => {
      try {
        assert.ok(Array.isArray((await post.agent.knowledge.search({ ...post.bind, query: q })).hits));
      } catch (e) {
        const x = e as { code?: string; details?: { stage?: string } };
        assert.deepEqual([x.code, x.details?.stage], ['validation_failed', 'request_validation'], `query ${JSON.stringify(q)}: ${(e as Error).message}`);
      }
    }),
    { numRuns: 100 },
  );
});

test('the PostgreSQL match can use the GIN index on kb_sections.tsv', async () => {
  const c = new pg.Client({ connectionString: post.t.db });
  await c.connect();
  try {
    await c.query('SET enable_seqscan = off');
    const plan = (await c.query("EXPLAIN SELECT rid FROM kb_sections WHERE tsv @@ plainto_tsquery('simple', 'example')")).rows.map((r) => Object.values(r)[0]).join('\n');
    assert.match(plan, /kb_sections_tsv/);
  } finally {
    await c.end();
  }
});

test('GIN keeps no pending list: right after a sync of 800 sections (no vacuum) the planner picks the index for a rare word', async () => {
  const src = await post.t.owner.knowledge.createSource({ name: 'bulk', kind: 'upload', scopes: ['channel:general'] });
  const words = Array.from({ length: 120 }, (_, i) => `w${i.toString(36)}`);
  for (let d = 0; d < 4; d++) {
    const content = Array.from({ length: 200 }, (_, s) => `## Bulk ${d}-${s}\nrare${d}x${s} ${Array.from({ length: 150 }, (_, k) => words[(d * 31 + s * 7 + k * 13) % words.length]).join(' ')}`).join('\n');
    await post.t.owner.knowledge.putDocument({ sourceId: src.id, path: `bulk${d}.md`, hash: sha(content), mtime: 1, content });
  }
  const c = new pg.Client({ connectionString: post.t.db });
  await c.connect();
  try {
    const plan = (await c.query("EXPLAIN SELECT rid FROM kb_sections WHERE tsv @@ plainto_tsquery('simple', 'rare2x77')")).rows.map((r) => Object.values(r)[0]).join('\n');
    assert.match(plan, /Bitmap Index Scan on kb_sections_tsv/, plan);
    const opts = (await c.query("SELECT reloptions FROM pg_class WHERE relname = 'kb_sections_tsv'")).rows[0]?.reloptions as string[] | null;
    assert.deepEqual(opts, ['fastupdate=off']);
    assert.equal((await post.agent.knowledge.search({ ...post.bind, query: 'rare2x77' })).hits[0]?.heading, 'Bulk 2-77');
  } finally {
    await c.end();
  }
});
