// End-to-end: the owner CLI for agents and turns: agent add options, message watch (JSON lines when piped), agent logs, README's command agent.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
