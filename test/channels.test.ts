// End-to-end: the owner CLI's channel and dm commands with the real binary and daemon: names resolve, turns follow, bad input changes nothing.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BIN, TestDaemon, cliJson } from './harness.js';
import { addTurnAgent, messages, post, readLog, waitFor } from './turns-kit.js';

const d = new TestDaemon();
const dir = mkdtempSync(join(tmpdir(), 'agentteam-channels-'));
const log = join(dir, 'demo.log');
let demo = { id: '', name: '' };

before(async () => {
  await d.start();
  demo = await addTurnAgent(d, 'demo', log, 'reply');
});
after(async () => {
  await d.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** What the server stores: channels, channel memberships and DMs, read straight from its SQLite file. */
function stored(): { channels: string[]; members: string[]; dms: number } {
  const db = new Database(join(d.home, 'server.db'), { readonly: true });
  try {
    return {
      channels: (db.prepare('SELECT id FROM channels ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id),
      members: (db.prepare('SELECT channel_id, member_id FROM channel_members ORDER BY 1, 2').all() as Array<{ channel_id: string; member_id: string }>).map((r) => `${r.channel_id}/${r.member_id}`),
      dms: (db.prepare('SELECT COUNT(*) AS n FROM dms').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}
const starts = () => readLog(log).filter((r) => r.ev === 'start');

test('channel create, ls and add: a mention of the added agent in the new channel is its turn, answered there; rm stops that', async () => {
  const c = cliJson(await d.run(['channel', 'create', 'ops', '--name', 'Operations']));
  assert.deepEqual([c.id, c.name, c.target], ['ops', 'Operations', 'channel:ops']);
  const ls = cliJson(await d.run(['channel', 'ls']));
  assert.deepEqual(ls.map((x: { target: string }) => x.target), ['channel:general', 'channel:ops'], 'piped: JSON without --json');
  // Names resolve as the server compares them: any case.
  const added = cliJson(await d.run(['channel', 'add', 'ops', 'DEMO']));
  assert.deepEqual(added, { channel: 'channel:ops', member: { id: demo.id, name: 'demo' } });
  const m = await post(d, 'channel:ops', '@demo are you in?');
  await waitFor('the reply in #ops', async () => (await messages(d, 'channel:ops')).find((x) => x.content === `reply to ${m.id}` && x.author.id === demo.id));
  assert.ok(starts().some((s) => s.target === 'channel:ops' && s.messageId === m.id));

  const rm = await d.run(['channel', 'rm', '#ops', 'demo']);
  assert.equal(rm.code, 0, rm.stderr);
  assert.equal(stored().members.includes(`ops/${demo.id}`), false);
  // After removal a mention there is no turn: the feed decides in order, so once a later turn ran, the earlier one was passed over.
  const gone = await post(d, 'channel:ops', '@demo still there?');
  const later = await post(d, 'channel:general', '@demo and here?');
  await waitFor('the later turn', () => starts().some((s) => s.messageId === later.id));
  assert.equal(starts().some((s) => s.messageId === gone.id), false);
});

test('dm open --with demo prints the DM target; message post --target dm:demo lands there and the agent answers its DM turn', async () => {
  const r = await d.run(['dm', 'open', '--with', 'Demo']);
  assert.equal(r.code, 0, r.stderr);
  const dm = cliJson(r);
  assert.match(dm.target, /^dm:dm\d+$/);
  assert.equal(dm.members.length, 2);
  assert.ok(dm.members.some((x: { id: string; name: string }) => x.id === demo.id && x.name === 'demo'));
  // Opening again returns the same DM.
  assert.equal(cliJson(await d.run(['dm', 'open', '--with', 'demo', '--json'])).target, dm.target);
  const m = await post(d, 'dm:demo', 'hello in private');
  assert.equal(m.target, dm.target);
  await waitFor('the DM reply', async () => (await messages(d, 'dm:DEMO')).find((x) => x.content === `reply to ${m.id}` && x.author.id === demo.id));
  const turn = starts().find((s) => s.messageId === m.id);
  assert.deepEqual([turn?.target, turn?.targetType], [dm.target, 'dm']);
  // message ls and watch resolve the name to the same DM.
  assert.ok((await messages(d, 'dm:demo')).some((x) => x.id === m.id));
  const w = spawn(process.execPath, [BIN, 'message', 'watch', '--target', 'dm:demo'], { env: { ...process.env, AGENTTEAM_HOME: d.home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  w.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  try {
    let i = 0;
    await waitFor('the watcher on dm:demo', async () => {
      await post(d, dm.target, `probe ${i++}`);
      return out.split('\n').some((l) => l.includes('"target":"' + dm.target + '"'));
    });
  } finally {
    w.kill('SIGTERM');
  }
  assert.equal(stored().dms, 1, 'one DM for all of it');
});

test('bad input (unknown name, bad slug, duplicate channel, not a member) is a clear error and changes nothing', async () => {
  await d.run(['channel', 'create', 'quiet']);
  const before = stored();
  const cases: Array<[string[], RegExp]> = [
    [['channel', 'create', 'Bad_Slug'], /validation_failed: channel id "Bad_Slug" must be a slug/],
    [['channel', 'create', 'quiet'], /conflict: channel quiet already exists/],
    [['channel', 'add', 'quiet', 'nobody'], /not_found: no member named "nobody"/],
    [['channel', 'add', 'nowhere', 'demo'], /not_found: channel nowhere not found/],
    [['channel', 'rm', 'quiet', 'demo'], /not_found: member \S+ is not in channel quiet/],
    [['dm', 'open', '--with', 'demo,nobody'], /not_found: no member named "nobody"/],
    [['message', 'post', '--target', 'dm:nobody', 'hi'], /not_found: no member named "nobody"/],
    [['message', 'ls', '--target', 'dm:nobody'], /not_found: no member named "nobody"/],
  ];
  for (const [args, err] of cases) {
    const r = await d.run(args);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}`);
    assert.match(r.stderr, err, args.join(' '));
  }
  assert.deepEqual(stored(), before);
});

test('each new subcommand has short help with one literal example', async () => {
  for (const args of [['channel', 'create'], ['channel', 'ls'], ['channel', 'add'], ['channel', 'rm'], ['dm', 'open']]) {
    const r = await d.run([...args, '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, new RegExp(`e\\.g\\.\\s+agentteam\\s+${args.join('\\s+')}\\s`));
  }
});
