// Unit-tests the owner CLI's parser against the real command table: pass-through command lines, --home anywhere, errors, help size.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { helpText, parse, UsageError, type CommandSpec, type Opts } from './args.js';
import { COMMANDS, HOME, PROGRAM, TOP } from './commands.js';
import type { CliContext } from './daemon-client.js';

const ctx: CliContext = { home: () => '/nonexistent', homeFlag: () => undefined, entry: '/nonexistent/cli.mjs' };

async function command(name: string): Promise<CommandSpec> {
  const c = COMMANDS.find(([n]) => n === name)!;
  return { name, desc: c[1], ...(await c[2](ctx)) };
}

/** Parses a whole command line as main.ts does: the program level, then the command. */
async function line(argv: string[]): Promise<{ r: ReturnType<typeof parse>; global: Opts }> {
  const global: Opts = {};
  const top = parse(TOP, argv, 'agentteam', [], global);
  assert.equal(top.kind, 'run');
  if (top.kind !== 'run') throw new Error('unreachable');
  global.home = top.opts.home;
  const [name, ...rest] = top.args;
  return { r: parse(await command(name!), rest, `agentteam ${name}`, [HOME], global), global };
}

function ran(r: ReturnType<typeof parse>): { path: string; opts: Opts; args: string[] } {
  assert.equal(r.kind, 'run');
  if (r.kind !== 'run') throw new Error('unreachable');
  return r;
}

async function usageError(argv: string[]): Promise<UsageError> {
  try {
    await line(argv);
  } catch (e) {
    assert.ok(e instanceof UsageError, String(e));
    return e;
  }
  assert.fail(`${argv.join(' ')} parsed`);
}

test('a pass-through command line is kept word for word: after --, and from its first word on (options and a later -- included)', async () => {
  const add = ran((await line(['agent', 'add', '--name', 'x', '--', 'sh', '-c', 'echo --json', '--home', 'h'])).r);
  assert.equal(add.path, 'agentteam agent add');
  assert.equal(add.opts.name, 'x');
  assert.deepEqual(add.args, ['sh', '-c', 'echo --json', '--home', 'h']);
  const bare = ran((await line(['agent', 'add', '--name', 'x', 'sh', '--', '-c', 'true'])).r);
  assert.deepEqual(bare.args, ['sh', '--', '-c', 'true'], 'after the first word a -- belongs to the command');
  const { r, global } = await line(['runtime', 'start', '--agent', 'a', '--detach', '--', 'node', '--help', '--agent', 'b']);
  const rt = ran(r);
  assert.equal(rt.opts.agent, 'a');
  assert.equal(rt.opts.detach, true);
  assert.deepEqual(rt.args, ['node', '--help', '--agent', 'b']);
  assert.equal(global.home, undefined, 'nothing after the command line is read as --home');
});

test('--home works before and after the command, also as --home=DIR; the last one wins', async () => {
  assert.equal((await line(['--home', '/a', 'agent', 'ls'])).global.home, '/a');
  assert.equal((await line(['agent', 'ls', '--home', '/b'])).global.home, '/b');
  assert.equal((await line(['message', 'post', '--home=/c', '--target', 'channel:general', 'hi'])).global.home, '/c');
  const both = await line(['--home', '/a', 'runtime', 'start', '--home', '/b', '--agent', 'x', '--', 'true']);
  assert.equal(both.global.home, '/b');
  assert.deepEqual(ran(both.r).args, ['true']);
});

test('options go before or between words; variadic, repeatable, defaulted and negated options', async () => {
  const post = ran((await line(['message', 'post', 'hello', '--target', 'channel:general', 'world'])).r);
  assert.deepEqual(post.args, ['hello', 'world']);
  assert.equal(post.opts.target, 'channel:general');
  const upd = ran((await line(['agent', 'update', 'demo', '--header', 'A=X', '--header', 'B=Y', '--allow-path', '/p'])).r);
  assert.deepEqual(upd.opts.header, ['A=X', 'B=Y']);
  assert.deepEqual(upd.opts.allowPath, ['/p']);
  assert.deepEqual(upd.args, ['demo']);
  const kb = ran((await line(['kb', 'add-source', './docs', '--scope', 'workspace', 'channel:general'])).r);
  assert.deepEqual(kb.opts.scope, ['workspace', 'channel:general']);
  assert.deepEqual(ran((await line(['kb', 'add-source', './docs'])).r).opts.scope, []);
  assert.equal(ran((await line(['member', 'invite', '--name', 'Ana'])).r).opts.role, 'member');
  assert.equal(ran((await line(['console'])).r).opts.open, true);
  assert.equal(ran((await line(['console', '--no-open'])).r).opts.open, false);
  assert.equal(ran((await line(['member', 'invite', 'ls', '--limit', '5'])).r).path, 'agentteam member invite ls');
});

test('bad usage is a UsageError naming the option, argument or command (main prints it with the help and exits 1)', async () => {
  const cases: Array<[string[], string]> = [
    [['agent', 'ls', '--bogus'], "unknown option '--bogus'"],
    [['--bogus', 'agent', 'ls'], "unknown option '--bogus'"],
    [['agent', 'frobnicate'], "unknown command 'frobnicate'"],
    [['agent', 'get'], "missing required argument 'agent'"],
    [['agent', 'get', 'a', 'b'], "too many arguments for 'get'. Expected 1 argument but got 2."],
    [['message', 'post', 'hi'], "required option '--target <target>' not specified"],
    [['message', 'post', 'hi', '--target'], "option '--target <target>' argument missing"],
    [['agent', 'add', '--name', 'x', '--runtime', 'vim'], "option '--runtime <kind>' argument 'vim' is invalid. Allowed choices are claude, codex, opencode, kimi, command."],
    [['member', 'role', 'Ana', 'boss'], "command-argument value 'boss' is invalid for argument 'role'. Allowed choices are admin, member."],
    [['agent', 'ls', '--json=yes'], "option '--json' takes no value"],
    [['agent', '--', 'ls'], "unknown command 'ls'"],
  ];
  for (const [argv, message] of cases) {
    const e = await usageError(argv);
    assert.equal(e.message, message, argv.join(' '));
  }
  assert.equal((await usageError(['agent', 'ls', '--bogus'])).path, 'agentteam agent ls', 'the help shown is the command\'s own');
});

test('help: -h/--help anywhere before a command line, `help SUB`, and a group without a command (to stderr)', async () => {
  for (const argv of [['message', 'post', '--help'], ['message', 'post', '--target', 'x', '-h'], ['message', 'help', 'post']]) {
    const { r } = await line(argv);
    assert.deepEqual(r.kind === 'help' && [r.path, r.toStderr], ['agentteam message post', false], argv.join(' '));
  }
  const { r } = await line(['agent']);
  assert.deepEqual(r.kind === 'help' && [r.path, r.toStderr], ['agentteam agent', true]);
  const passed = ran((await line(['runtime', 'start', '--agent', 'a', 'claude', '--help'])).r);
  assert.deepEqual(passed.args, ['claude', '--help'], "a runtime's own --help is passed on");
});

test('every help page (program, each command and subcommand) has a usage line and its options, and is at most 250 tokens', async () => {
  const pages: Array<[string, string]> = [['agentteam', helpText(PROGRAM, 'agentteam')]];
  const walk = (s: CommandSpec, path: string) => {
    pages.push([path, helpText(s, path)]);
    for (const c of s.sub ?? []) walk(c, `${path} ${c.name}`);
  };
  for (const [name] of COMMANDS) walk(await command(name), `agentteam ${name}`);
  assert.ok(pages.length > 40, `${pages.length} pages`);
  for (const [path, text] of pages) {
    assert.ok(text.startsWith(`Usage: ${path}`), path);
    assert.match(text, /-h, --help/, path);
    assert.ok(countTokens(text) <= 250, `${path} --help is ${countTokens(text)} o200k tokens`);
  }
  const post = pages.find(([p]) => p === 'agentteam message post')![1];
  assert.match(post, /--target <target> +exact target/);
  assert.match(post, /e\.g\. agentteam message post --target channel:general "hello"/);
  assert.match(pages[0]![1], /--home <dir>/);
  for (const [name] of COMMANDS) assert.match(pages[0]![1], new RegExp(`^  ${name} `, 'm'), `the program's help lists ${name}`);
});
