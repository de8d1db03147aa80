// End-to-end: the owner CLI for agents and turns: agent add options, message watch (JSON lines when piped), agent logs, README's command agent.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN, TestDaemon, cliJson } from './harness.js';
import { ownerApi, post, turns, waitFor } from './turns-kit.js';

const d = new TestDaemon();
const wd = mkdtempSync(join(tmpdir(), 'agentteam-ux-'));
before(() => d.start());
const profile = (id: string) => JSON.parse(readFileSync(join(d.home, 'profiles', `${id}.json`), 'utf8'));
after(async () => {
  await d.dispose();
  rmSync(wd, { recursive: true, force: true });
});

test('agent add stores model, workdir and command; bad input changes nothing', async () => {
  const ok = cliJson(await d.run(['agent', 'add', '--name', 'cfg', '--runtime', 'command', '--model', 'gpt-5.1', '--workdir', wd, '--', 'node', 'x.mjs', '--flag']));
  // The CLI prints the safe projection (no raw path, no argv); the private profile stores them.
  assert.deepEqual([ok.model, ok.workdir, ok.command], ['gpt-5.1', undefined, undefined]);
  const stored = profile(ok.id);
  assert.deepEqual([stored.model, stored.workdir, stored.command], ['gpt-5.1', wd, ['node', 'x.mjs', '--flag']]);
  const badDir = await d.run(['agent', 'add', '--name', 'cfg2', '--workdir', join(wd, 'missing')]);
  assert.equal(badDir.code, 1);
  assert.match(badDir.stderr, /invalid_input: workdir is not a directory/);
  const badModel = await d.run(['agent', 'add', '--name', 'cfg3', '--model', 'a b']);
  assert.equal(badModel.code, 1);
  assert.match(badModel.stderr, /validation_failed/);
  const names = cliJson(await d.run(['agent', 'ls'])).map((a: { name: string }) => a.name);
  assert.deepEqual(names, ['cfg']);
});

test('message watch prints each new message once, in order, as JSON lines when piped', async () => {
  const w = spawn(process.execPath, [BIN, 'message', 'watch', '--target', 'channel:general'], { env: { ...process.env, AGENTTEAM_HOME: d.home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  w.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const lines = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { content: string; author: { kind: string } });
  try {
    // Probe until the watcher is following (messages before its start are not printed).
    let i = 0;
    await waitFor('the watcher', async () => {
      await post(d, 'channel:general', `probe ${i++}`);
      return lines().length > 0;
    });
    await post(d, 'channel:general', 'first');
    await post(d, 'channel:general', 'second');
    await waitFor('both messages', () => lines().some((l) => l.content === 'second'));
    const seen = lines().map((l) => l.content);
    const after = seen.slice(seen.indexOf('first'));
    assert.deepEqual(after, ['first', 'second']);
    assert.equal(new Set(seen).size, seen.length, 'no message printed twice');
    assert.equal(lines()[0]!.author.kind, 'human');
  } finally {
    w.kill('SIGTERM');
  }
});

test("the README's command agent answers a mention by creating a task through agentteam exec; agent logs lists the turn", async () => {
  const add = await d.run(['agent', 'add', '--name', 'echo', '--', 'sh', '-c', 'cat >/dev/null; agentteam exec task create "{\\"title\\":\\"from $AGENTTEAM_TURN_TARGET\\"}"'], { cwd: wd });
  assert.equal(add.code, 0, add.stderr);
  assert.equal(profile(cliJson(add).id).workdir, wd);
  await post(d, 'channel:general', '@echo make a task');
  const owner = await ownerApi(d);
  try {
    const task = await waitFor('the task', async () => (await owner.api.tasks.list({})).tasks.find((t) => t.title === 'from channel:general'));
    assert.equal(task.status, 'open');
  } finally {
    owner.close();
  }
  const t = await waitFor('the logged turn', async () => (await turns(d, 'echo')).find((x) => x.outcome === 'ok'));
  assert.equal(t.target, 'channel:general');
  const piped = await d.run(['agent', 'logs', 'echo']);
  assert.equal(cliJson(piped).turns[0].turnId, t.turnId, 'piped output is JSON without --json');
});

test('the home wall: a workdir or --allow-path that is, contains or sits inside the home (a link too) is refused at add, update and runtime start; a hand-edited profile never runs a turn', async () => {
  const before = readdirSync(join(d.home, 'profiles')).sort();
  const link = join(wd, 'home-link');
  symlinkSync(d.home, link);
  // From the folder holding the home (as `agent add` run from ~ with the default workdir), the home itself, inside it, a link to it.
  const refused: Array<[string[], string | undefined, RegExp]> = [
    [[], dirname(d.home), /invalid_input: workdir contains the AgentTeam home.*--workdir/],
    [[], d.home, /invalid_input: workdir is the AgentTeam home/],
    [['--workdir', join(d.home, 'profiles')], wd, /invalid_input: workdir is inside the AgentTeam home/],
    [['--workdir', link], wd, /invalid_input: workdir is the AgentTeam home/],
    [['--workdir', wd, '--allow-path', '/usr', '--allow-path', join(link, 'later', 'x')], wd, /invalid_input: allowedPaths\[1\] is inside the AgentTeam home.*--allow-path/],
  ];
  for (const [args, cwd, why] of refused) {
    const r = await d.run(['agent', 'add', '--name', 'walled', ...args], { cwd });
    assert.equal(r.code, 1, `${args.join(' ')} from ${cwd}: ${r.stdout}`);
    assert.match(r.stderr, why);
    assert.ok(!r.stderr.includes(d.home), 'the error names the field, not the home path');
  }
  assert.deepEqual(readdirSync(join(d.home, 'profiles')).sort(), before, 'nothing was stored');
  assert.ok(!cliJson(await d.run(['agent', 'ls'])).some((a: { name: string }) => a.name === 'walled'));

  const ok = cliJson(await d.run(['agent', 'add', '--name', 'walled', '--workdir', wd, '--', 'sh', '-c', 'cat >/dev/null; echo ran > ran.txt']));
  const stored = profile(ok.id);
  for (const args of [['--workdir', d.home], ['--workdir', dirname(d.home)], ['--allow-path', join(d.home, 'owner.token')]]) {
    const r = await d.run(['agent', 'update', 'walled', ...args]);
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.stderr, /invalid_input: (workdir|allowedPaths\[0\]) (is|contains|is inside) the AgentTeam home/);
  }
  assert.deepEqual(profile(ok.id), stored, 'a refused update changes nothing');
  const rt = await d.run(['runtime', 'start', '--agent', 'walled', '--workdir', d.home, '--', 'true']);
  assert.equal(rt.code, 1);
  assert.match(rt.stderr, /invalid_input: workdir is the AgentTeam home/);

  // A profile edited by hand (then reloaded) is checked again when its turn starts: the turn fails, nothing runs in the home.
  writeFileSync(join(d.home, 'profiles', `${ok.id}.json`), JSON.stringify({ ...stored, workdir: d.home }, null, 2) + '\n', { mode: 0o600 });
  assert.equal((await d.run(['agent', 'reload'])).code, 0);
  await post(d, 'channel:general', '@walled hello');
  const t = await waitFor('the refused turn', async () => (await turns(d, 'walled')).find((x) => x.status === 'failed'));
  assert.match(t.detail, /workdir is the AgentTeam home/);
  assert.equal(existsSync(join(d.home, 'ran.txt')), false);
  // Its allowed paths are checked at runtime start too.
  writeFileSync(join(d.home, 'profiles', `${ok.id}.json`), JSON.stringify({ ...stored, allowedPaths: [d.home] }, null, 2) + '\n', { mode: 0o600 });
  assert.equal((await d.run(['agent', 'reload'])).code, 0);
  const rt2 = await d.run(['runtime', 'start', '--agent', 'walled', '--workdir', wd, '--', 'true']);
  assert.equal(rt2.code, 1);
  assert.match(rt2.stderr, /invalid_input: allowedPaths\[0\] is the AgentTeam home/);
});

test('provider settings are checked on input with the field named (CR/LF in a header value, a header name with a space, a base URL that is not http(s) or has a space); nothing is stored; agent get shows scheme, host and port only', async () => {
  const env = { HV_CRLF: 'ok\r\nX-Injected: 1', HV_LF: 'ok\nX-Injected: 1', HV_OK: 'fine value' };
  const refused: Array<[string[], RegExp]> = [
    [['--header', 'X-Auth=HV_CRLF'], /invalid_input: headers\.X-Auth has a CR, LF/],
    [['--header', 'X-Auth=HV_LF'], /invalid_input: headers\.X-Auth has a CR, LF/],
    [['--header', 'Bad Name=HV_OK'], /headers/],
    [['--base-url', 'ftp://api.example.com/'], /invalid_input: baseUrl must be an http\(s\) URL/],
    [['--base-url', 'https://api.example.com/a b'], /invalid_input: baseUrl has a space/],
    [['--base-url', 'https://api.example.com/\t'], /invalid_input: baseUrl has a space/],
    [['--base-url', 'not a url'], /invalid_input: baseUrl/],
  ];
  for (const [args, why] of refused) {
    const r = await d.run(['agent', 'add', '--name', 'prov', '--workdir', wd, ...args], { env });
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}`);
    assert.match(r.stderr, why);
    assert.ok(!r.stderr.includes('X-Injected'), 'the error holds no header value');
  }
  assert.ok(!cliJson(await d.run(['agent', 'ls'])).some((a: { name: string }) => a.name === 'prov'), 'nothing was stored');
  const add = await d.run(['agent', 'add', '--name', 'prov', '--workdir', wd, '--runtime', 'claude', '--header', 'X-Auth=HV_OK', '--base-url', 'https://api.example.com:8443/v1;jsessionid=SESSION-SECRET?k=Q-SECRET'], { env });
  assert.equal(add.code, 0, add.stderr);
  const stored = profile(cliJson(add).id);
  const upd = await d.run(['agent', 'update', 'prov', '--header', 'X-Auth=HV_CRLF'], { env });
  assert.equal(upd.code, 1);
  assert.match(upd.stderr, /invalid_input: headers\.X-Auth has a CR, LF/);
  assert.deepEqual(profile(cliJson(add).id), stored, 'a refused update changes nothing');
  const got = cliJson(await d.run(['agent', 'get', 'prov']));
  assert.equal(got.baseUrl, 'https://api.example.com:8443');
  assert.deepEqual(got.headerNames, ['x-auth']);
  assert.doesNotMatch(JSON.stringify(got), /SECRET|fine value/);
});
