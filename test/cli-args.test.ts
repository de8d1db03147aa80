// End-to-end: the owner CLI's own parser through the real binary and daemon: pass-through command lines, --home anywhere, usage errors, help.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDaemon, cli, cliJson } from './harness.js';

const d = new TestDaemon();
const elsewhere = mkdtempSync(join(tmpdir(), 'agentteam-nohome-'));
before(() => d.start());
after(async () => {
  await d.dispose();
  rmSync(elsewhere, { recursive: true, force: true });
});

test('agent add -- CMD and runtime start -- CMD keep the command line word for word (its --home and --json are its own)', async () => {
  const add = await d.run(['agent', 'add', '--name', 'argv', '--', 'sh', '-c', 'cat >/dev/null', 'sh', '--home', 'x', '--json']);
  assert.equal(add.code, 0, add.stderr);
  const profile = JSON.parse(readFileSync(join(d.home, 'profiles', `${cliJson(add).id}.json`), 'utf8'));
  assert.deepEqual(profile.command, ['sh', '-c', 'cat >/dev/null', 'sh', '--home', 'x', '--json']);
  const run = await d.run(['runtime', 'start', '--agent', 'argv', '--workdir', elsewhere, '--', 'sh', '-c', 'printf "%s|" "$@"', 'sh', '--home', 'x', '--', '--json']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, '--home|x|--|--json|');
  const bare = await d.run(['runtime', 'start', '--agent', 'argv', '--workdir', elsewhere, 'sh', '-c', 'exit 3']);
  assert.equal(bare.code, 3, 'without --, the command line starts at its first word and its exit code is ours');
});

test('--home works before and after the command', async () => {
  const nowhere = await cli(elsewhere, ['agent', 'ls', '--json']);
  assert.equal(nowhere.code, 5, 'no daemon for that home');
  for (const args of [['--home', d.home, 'agent', 'ls', '--json'], ['agent', 'ls', '--json', '--home', d.home], ['agent', '--home', d.home, 'ls', '--json'], [`--home=${d.home}`, 'agent', 'ls', '--json']]) {
    const r = await cli(elsewhere, args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.ok(cliJson(r).some((a: { name: string }) => a.name === 'argv'), args.join(' '));
  }
});

test('usage errors: exit 1, "error: …" and the command\'s help on stderr, nothing on stdout, nothing changed', async () => {
  const cases: Array<[string[], RegExp, string]> = [
    [['agent', 'ls', '--bogus'], /^error: unknown option '--bogus'\n\nUsage: agentteam agent ls /, 'unknown option'],
    [['bogus'], /^error: unknown command 'bogus'\n\nUsage: agentteam \[options\] \[command\]/, 'unknown command'],
    [['agent', 'bogus'], /^error: unknown command 'bogus'\n\nUsage: agentteam agent /, 'unknown subcommand'],
    [['agent', 'add', '--name', 'never', '--runtime', 'vim'], /^error: option '--runtime <kind>' argument 'vim' is invalid\. Allowed choices are claude, codex, opencode, kimi, command\./, 'bad choice'],
    [['message', 'post', 'hi'], /^error: required option '--target <target>' not specified/, 'missing option'],
    [['agent', 'rm'], /^error: missing required argument 'agent'/, 'missing argument'],
  ];
  for (const [args, err, what] of cases) {
    const r = await d.run(args);
    assert.equal(r.code, 1, what);
    assert.match(r.stderr, err, what);
    assert.equal(r.stdout, '', what);
  }
  assert.ok(!cliJson(await d.run(['agent', 'ls', '--json'])).some((a: { name: string }) => a.name === 'never'));
  const group = await d.run(['agent']);
  assert.equal(group.code, 1, 'a group without a command shows its help as an error');
  assert.match(group.stderr, /^Usage: agentteam agent \[options\] \[command\]\n[\s\S]*\n  add \[options\] \[cmd\.\.\.\] +create an agent/);
});

test('help of the program and of a command: stdout, exit 0, usage and options; --version', async () => {
  const post = await d.run(['message', 'post', '--help']);
  assert.equal(post.code, 0);
  assert.match(post.stdout, /^Usage: agentteam message post \[options\] <text\.\.\.>\n\npost a message, e\.g\. agentteam message post --target channel:general "hello"\n/);
  assert.match(post.stdout, /\n  --target <target> +exact target: channel:<id>/);
  assert.equal((await d.run(['help', 'message', 'post'])).stdout, post.stdout);
  const program = await d.run(['--help']);
  assert.equal(program.code, 0);
  assert.match(program.stdout, /\n  --home <dir> +home folder/);
  assert.match(program.stdout, /\n  message +talk to agents as the Human owner\n/);
  const version = await d.run(['--version']);
  assert.equal(version.code, 0);
  assert.equal(version.stdout, `${JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).version}\n`);
});
