// Tests retiring agents: the order (feed, runtimes, profile, leftovers), orphan cleanup against the server's members, reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { AgentIndex } from './agent-index.js';
import { AgentLifecycle } from './agent-lifecycle.js';
import { ProfileStore, type AgentProfile } from '../home/profiles.js';

const agent = (id: string, extra: Partial<AgentProfile> = {}): AgentProfile => ({ id, name: `n-${id}`, runtime: 'command', createdAt: '2026-01-01T00:00:00.000Z', credential: `cred-${id}`, ...extra });

function setup(ids: string[], members: () => Promise<ReadonlySet<string>>) {
  const dir = mkdtempSync(join(tmpdir(), 'aglife-'));
  const profiles = new ProfileStore(dir);
  const index = new AgentIndex({ store: profiles, live: () => ({ runtimeLive: false, turnLive: false }) });
  for (const id of ids) index.add(agent(id));
  const events: string[] = [];
  const runs = new Map<string, string[]>(ids.map((id) => [id, [`run-${id}`]]));
  const life = new AgentLifecycle({
    index,
    profiles,
    runtimes: {
      runIdsOf: (id) => runs.get(id) ?? [],
      stop: async (r) => {
        events.push(`stop ${r} (profile ${profiles.get(r.slice(4)) ? 'present' : 'gone'})`);
        for (const [k, v] of runs) runs.set(k, v.filter((x) => x !== r));
      },
    },
    turns: { follow: (p) => events.push(`follow ${p.id}`), unfollow: (id) => events.push(`unfollow ${id}`) },
    leftovers: [{ forget: (id) => events.push(`forget ${id} (profile ${profiles.get(id) ? 'present' : 'gone'})`) }],
    agentMembers: members,
    log: pino({ level: 'silent' }),
  });
  return { dir, profiles, index, life, events, done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('remove: the feed stops and the live runtimes are stopped (revoked) while the profile still exists, then the profile and leftovers go', async () => {
  const s = setup(['mem_a', 'mem_b'], async () => new Set(['mem_a', 'mem_b']));
  const rev = s.index.revision;
  await s.life.remove('mem_a');
  assert.deepEqual(s.events, ['unfollow mem_a', 'stop run-mem_a (profile present)', 'forget mem_a (profile gone)']);
  assert.equal(existsSync(join(s.dir, 'mem_a.json')), false);
  assert.deepEqual(s.profiles.ids(), ['mem_b']);
  assert.ok(s.index.revision > rev);
  s.done();
});

test('orphan cleanup removes exactly the profiles whose server member is gone, quiesced first, and bumps the revision', async () => {
  const s = setup(['mem_a', 'mem_b', 'mem_c'], async () => new Set(['mem_b']));
  const rev = s.index.revision;
  assert.deepEqual(await s.life.cleanupOrphans(), ['mem_a', 'mem_c']);
  assert.deepEqual(s.profiles.ids(), ['mem_b']);
  assert.deepEqual(s.events, ['unfollow mem_a', 'stop run-mem_a (profile present)', 'unfollow mem_c', 'stop run-mem_c (profile present)', 'forget mem_a (profile gone)', 'forget mem_c (profile gone)']);
  assert.ok(s.index.revision > rev);
  s.done();
});

test('when the server cannot list its members, orphan cleanup removes nothing and keeps the revision', async () => {
  const s = setup(['mem_a'], async () => {
    throw new Error('upstream_unavailable');
  });
  const rev = s.index.revision;
  assert.deepEqual(await s.life.cleanupOrphans(), []);
  assert.deepEqual(s.profiles.ids(), ['mem_a']);
  assert.deepEqual(s.events, []);
  assert.equal(s.index.revision, rev);
  s.done();
});

test('reload: a vanished file is quiesced and forgotten, the rest followed, disabled ones quiesced; orphans then cleaned up', async () => {
  const s = setup(['mem_a', 'mem_b', 'mem_c'], async () => new Set(['mem_a', 'mem_b']));
  s.index.update('mem_b', { enabled: false });
  rmSync(join(s.dir, 'mem_a.json'));
  const rev = s.index.revision;
  const r = await s.life.reload();
  assert.deepEqual({ ...r, revision: undefined }, { changed: true, revision: undefined, agents: 1, orphans: ['mem_c'], vanished: ['mem_a'] });
  assert.ok(r.revision > rev);
  assert.deepEqual(s.events.slice(0, 4), ['unfollow mem_a', 'stop run-mem_a (profile gone)', 'forget mem_a (profile gone)', 'unfollow mem_b']);
  assert.ok(s.events.includes('follow mem_c'));
  assert.ok(s.events.includes('forget mem_c (profile gone)'));
  s.done();
});

test('disable quiesces; enable follows again', async () => {
  const s = setup(['mem_a'], async () => new Set(['mem_a']));
  await s.life.setEnabled(s.index.update('mem_a', { enabled: false }));
  await s.life.setEnabled(s.index.update('mem_a', { enabled: true }));
  assert.deepEqual(s.events, ['unfollow mem_a', 'stop run-mem_a (profile present)', 'follow mem_a']);
  s.done();
});
