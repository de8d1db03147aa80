// Owns `node --import tsx bench/kb-profile.ts [n]`: where a kb_search's time goes, part by part, on the kb benchmark's corpus
// (a bare node:http round trip, GET /v1/me, search over HTTP, the service without HTTP, revalidation and ranking alone).
// With --cpu-prof (node --cpu-prof --import tsx bench/kb-profile.ts) the loop at the end is the profile's bulk.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDomains } from '../src/server/app.js';
import type { DomainDeps } from '../src/server/context.js';
import { openStore } from '../src/server/store/open.js';
import { systemClock } from '../src/shared/clock.js';
import type { Knowledge } from '../src/domains/knowledge/service.js';
import type { Members } from '../src/domains/member/service.js';
import { revalidateTurn } from '../src/domains/knowledge/revalidate.js';
import { rankSections } from '../src/domains/knowledge/rank.js';
import { searchTerms } from '../src/domains/knowledge/query.js';
import { kbFixture } from './kb.js';
import { DOMAINS, SCHEMA, serverClient } from '../src/domains/registry.js';

const n = Number(process.argv[2] ?? 2000);
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed(label: string, f: (i: number) => Promise<unknown>, count = n): Promise<void> {
  // A GET first: after a long service-only step the pooled keep-alive socket may have been closed (a GET is retried).
  await fx.agent.members.me();
  for (let i = 0; i < 50; i++) await f(i);
  const xs: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const s = performance.now();
    await f(i);
    xs.push(performance.now() - s);
  }
  // CPU time per call (client and server share this process): far less sensitive to other load than wall time.
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(`${label.padEnd(56)} p50 ${(p50(xs) * 1000).toFixed(0).padStart(6)} µs  cpu ${((cpu.user + cpu.system) / count).toFixed(0).padStart(6)} µs/call\n`);
}

const dir = mkdtempSync(join(tmpdir(), 'kb-profile-'));
const fx = await kbFixture(dir);
const canned = Buffer.from('{"ok":true,"data":{"serverId":"srv_x","workspaceId":null,"version":"0"}}');
const bare = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': canned.length }).end(canned));
});
await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
const bareClient = serverClient({ baseUrl: `http://127.0.0.1:${(bare.address() as { port: number }).port}` });
// A second store and composition on the same SQLite file: the service without HTTP (reads only).
const store = await openStore(fx.t.db, { schema: SCHEMA });
const domains = await createDomains(DOMAINS, store, systemClock);
const members = (domains.services as unknown as { members: Members }).members;
const kb = (domains.services as unknown as { knowledge: Knowledge }).knowledge;
const me = await fx.agent.members.me();
const actor = { id: me.id, name: me.name, kind: me.kind, role: me.role } as const;
// KB_RARE=vocab: rare words from the vocabulary's tail (tens of sections each, as bench/search-path's), not unique tokens.
const rareQ = process.env.KB_RARE === 'miss' ? () => 'zzqxjvkw' : process.env.KB_RARE === 'vocab' ? (i: number) => fx.vocab[4000 + ((i * 37) % 4000)]! : fx.rare;
const input = (i: number) => ({ ...fx.bind, query: rareQ(i), limit: 5 });
try {
  for (let round = 0; round < Number(process.env.KB_ROUNDS ?? 2); round++) {
    process.stdout.write(`-- round ${round + 1}\n`);
    await timed('bare node:http round trip (ServerClient, canned JSON)', () => bareClient.info());
    await timed('bare node:http POST with a search body (canned JSON)', (i) => bareClient.call({ method: 'POST', path: '/x', body: input(i) }));
    await timed('GET /v1/server (no auth, our pipeline)', () => fx.t.client.info());
    await timed('GET /v1/me (hop + auth + member load)', () => fx.agent.members.me());
    await timed('POST /v1/knowledge/search rare (ServerClient)', (i) => fx.agent.knowledge.search(input(i)));
    await timed('tool handler rare (full daemon path)', (i) => fx.tool(rareQ(i)));
    await timed('service: members.authenticate (no HTTP)', () => members.authenticate(fx.credential));
    await timed('service: members.me (no HTTP)', () => members.me(actor));
    await timed('service: knowledge.search rare (no HTTP)', (i) => kb.search(actor, input(i)));
    await timed('service: store.tx(empty)', () => store.tx(async () => undefined));
    await timed('service: revalidateTurn in a tx', () => store.tx((sql) => revalidateTurn(sql, { meta: domains.meta } as DomainDeps, actor, fx.bind)));
    await timed('service: rankSections rare in a tx', (i) => store.tx((sql) => rankSections('sqlite', sql, searchTerms(rareQ(i)), ['workspace', 'channel:general'], 5)));
    await timed('service: knowledge.search common (no HTTP)', () => kb.search(actor, { ...fx.bind, query: fx.common, limit: 5 }), 100);
    await timed('service: rankSections common in a tx', () => store.tx((sql) => rankSections('sqlite', sql, searchTerms(fx.common), ['workspace', 'channel:general'], 5)), 100);
    await timed('tool handler common', () => fx.tool(fx.common), 100);
  }
  if (process.execArgv.some((a) => a.startsWith('--cpu-prof'))) {
    const what = process.env.KB_PROFILE ?? 'tool';
    process.stdout.write(`-- profile loop: ${what} rare, 10 s\n`);
    const end = performance.now() + 10_000;
    for (let i = 0; performance.now() < end; i++) {
      if (what === 'me') await fx.agent.members.me();
      else if (what === 'hop') await fx.agent.knowledge.search(input(i));
      else await fx.tool(rareQ(i));
    }
  }
} finally {
  bareClient.close();
  bare.close();
  await store.close();
  await fx.t.stop();
  rmSync(dir, { recursive: true, force: true });
}
