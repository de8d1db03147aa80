// Owns the real-runtime home-wall fixture: a workdir holding a planted AgentTeam home, and the checks that its owner token leaked nowhere.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson } from '../harness.js';
import type { RuntimeDaemon } from './daemon-runs.js';
import { workdir } from './harness.js';
import type { ModelCapture } from './model-capture.js';

/** A fresh workdir holding `.agentteam/owner.token` and `owner.json` with a planted owner token (as `agent add` from ~ did). */
export function plantHome(runtime: string): { cwd: string; home: string; secret: string } {
  const cwd = workdir();
  const home = join(cwd, '.agentteam');
  mkdirSync(home, { mode: 0o700 });
  const secret = `ato_PLANTED-owner-token-${runtime}`;
  writeFileSync(join(home, 'owner.token'), `${secret}\n`, { mode: 0o600 });
  writeFileSync(join(home, 'owner.json'), JSON.stringify({ credential: secret }), { mode: 0o600 });
  return { cwd, home, secret };
}

/** The scripted attack's last step posts `home read: <what the reads returned>`: it posted, and neither the post nor any model request holds `secret`. */
export async function assertHomeNotLeaked(rd: RuntimeDaemon, model: ModelCapture, member: string, secret: string): Promise<void> {
  assert.ok(!model.requests.some((q) => JSON.stringify(q.body).includes(secret)), 'the owner token reached the model');
  const ls = cliJson(await rd.d.run(['message', 'ls', '--target', 'channel:general']));
  const posted = (ls.messages as { content: string; author: { name: string } }[]).find((m) => m.author.name === member && m.content.startsWith('home read:'));
  assert.ok(posted, 'the scripted message_send did not post');
  assert.ok(!posted.content.includes(secret), 'the owner token was posted');
}
