// Tests prepareRuntime per kind: argv, files (0600, in runDir, no token), env additions, and the failure paths.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync as mkdtempRaw, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { DRIVERS, prepareRuntime, RUNTIME_KINDS, type RuntimeKind } from './index.js';

const TOKEN = 'atk_mcp_3f9c1d7e5b2a4f60a1b2c3d4e5f60718';
const MCP_URL = 'http://127.0.0.1:43117/api/internal/mcp/servers/srv_1/agents/agt_1';
/** Exactly the agentteam server's tools and `agentteam exec` commands, one argv element (the flag is variadic). */
const ALLOW_CLAUDE = '--allowedTools=mcp__agentteam,Bash(agentteam exec:*)';

const made: string[] = [];
function mkdtempSync(prefix: string): string {
  const dir = mkdtempRaw(prefix);
  made.push(dir);
  return dir;
}
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Fixture {
  runDir: string;
  binDir: string;
  env: Record<string, string>;
}

/** A private runDir, and a bin dir holding executable stand-ins for the given binaries, first on PATH. */
function fixture(bins: string[] = ['claude', 'codex', 'opencode', 'kimi']): Fixture {
  const root = mkdtempSync(join(tmpdir(), 'drivers-'));
  const runDir = join(root, 'run');
  mkdirSync(runDir, { mode: 0o700 });
  chmodSync(runDir, 0o700);
  const binDir = join(root, 'bin');
  mkdirSync(binDir);
  for (const b of bins) writeFileSync(join(binDir, b), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return { runDir, binDir, env: { PATH: binDir, AGENTTEAM_MCP_TOKEN: TOKEN, AGENTTEAM_MCP_URL: MCP_URL } };
}

function prep(kind: RuntimeKind, f: Fixture, command: string[] = []) {
  return prepareRuntime(kind, { command, workdir: tmpdir(), runDir: f.runDir, mcpUrl: MCP_URL, env: f.env });
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

test('claude without CMD runs claude from PATH with --mcp-config= pointing at a 0600 file in runDir', async () => {
  const f = fixture();
  const plan = await prep('claude', f);
  const file = join(f.runDir, 'claude-mcp.json');
  assert.equal(plan.command, join(f.binDir, 'claude'));
  assert.deepEqual(plan.args, [`--mcp-config=${file}`, ALLOW_CLAUDE]);
  assert.deepEqual(plan.files, [file]);
  assert.equal(plan.envAdd, undefined);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(readJson(file), {
    mcpServers: { agentteam: { type: 'http', url: MCP_URL, headers: { Authorization: 'Bearer ${AGENTTEAM_MCP_TOKEN}' } } },
  });
});

test('claude inserts --mcp-config=FILE and --allowedTools= right after the binary, bare or as a path ending in /claude', async () => {
  for (const argv0 of ['claude', '/opt/tools/bin/claude']) {
    const f = fixture([]);
    const plan = await prep('claude', f, [argv0, 'fix the bug', '--model', 'x']);
    assert.equal(plan.command, argv0);
    // One argv element with `=`: a following positional prompt is never read as another config file.
    assert.deepEqual(plan.args, [`--mcp-config=${join(f.runDir, 'claude-mcp.json')}`, ALLOW_CLAUDE, 'fix the bug', '--model', 'x']);
  }
});

test('claude with another CMD passes it through untouched and writes nothing', async () => {
  const f = fixture();
  const plan = await prep('claude', f, ['./run-claude.sh', '--flag']);
  assert.deepEqual(plan, { command: './run-claude.sh', args: ['--flag'], files: [] });
  assert.deepEqual(readdirSync(f.runDir), []);
  const lookalike = await prep('claude', f, ['/usr/bin/claude-wrapper']);
  assert.deepEqual(lookalike.args, []);
});

test('codex gets -c overrides (url, bearer env var name, blanked shell copy, non-login shell, loopback-only sandbox network) before any subcommand, and no file', async () => {
  const f = fixture();
  const expected = [
    `mcp_servers.agentteam.url="${MCP_URL}"`,
    'mcp_servers.agentteam.bearer_token_env_var="AGENTTEAM_MCP_TOKEN"',
    'shell_environment_policy.set.AGENTTEAM_MCP_TOKEN=""',
    // A non-login shell keeps the daemon's agentteam bin dir on PATH.
    'allow_login_shell=false',
    // Sandboxed commands reach exactly the daemon's loopback host, through Codex's managed proxy.
    'features.network_proxy=true',
    'default_permissions="agentteam"',
    'permissions.agentteam.extends=":read-only"',
    'permissions.agentteam.network.enabled=true',
    'permissions.agentteam.network.mode="full"',
    'permissions.agentteam.network.domains={ "127.0.0.1" = "allow" }',
  ].flatMap((kv) => ['-c', kv]);
  const own = await prep('codex', f);
  assert.equal(own.command, join(f.binDir, 'codex'));
  assert.deepEqual(own.args, expected);
  assert.deepEqual(own.files, []);
  const sub = await prep('codex', f, ['codex', 'app-server']);
  assert.deepEqual(sub.args, [...expected, 'app-server']);
  const other = await prep('codex', f, ['node', 'agent.js']);
  assert.deepEqual(other.args, ['agent.js']);
  assert.deepEqual(readdirSync(f.runDir), []);
});

test('codex quotes the url as a TOML basic string', async () => {
  const f = fixture();
  const plan = await prepareRuntime('codex', { command: [], workdir: tmpdir(), runDir: f.runDir, mcpUrl: 'http://h/a"b\\c\x7f', env: f.env });
  assert.equal(plan.args[1], 'mcp_servers.agentteam.url="http://h/a\\"b\\\\c\\u007F"');
  const v6 = await prepareRuntime('codex', { command: [], workdir: tmpdir(), runDir: f.runDir, mcpUrl: 'http://[::1]:4000/mcp', env: f.env });
  assert.equal(v6.args.at(-1), 'permissions.agentteam.network.domains={ "::1" = "allow" }');
});

test('opencode writes opencode.json in runDir and points OPENCODE_CONFIG at it, for any CMD', async () => {
  const f = fixture();
  const plan = await prep('opencode', f);
  const file = join(f.runDir, 'opencode.json');
  assert.equal(plan.command, join(f.binDir, 'opencode'));
  assert.deepEqual(plan.args, []);
  assert.deepEqual(plan.files, [file]);
  assert.deepEqual(plan.envAdd, { OPENCODE_CONFIG: file });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(readJson(file), {
    $schema: 'https://opencode.ai/config.json',
    mcp: { agentteam: { type: 'remote', url: MCP_URL, enabled: true, headers: { Authorization: 'Bearer {env:AGENTTEAM_MCP_TOKEN}' } } },
    // Exactly our tools and `agentteam exec` commands are allowed; every other rule stays the user's or the default.
    permission: { 'agentteam_*': 'allow', bash: { 'agentteam exec *': 'allow' } },
  });
  const g = fixture();
  const wrapped = await prep('opencode', g, ['./start.sh', 'run']);
  assert.equal(wrapped.command, './start.sh');
  assert.deepEqual(wrapped.args, ['run']);
  assert.deepEqual(wrapped.envAdd, { OPENCODE_CONFIG: join(g.runDir, 'opencode.json') });
});

test('kimi gets --mcp-config-file with Kimi CLI mcpServers JSON; kimi-cli is the same binary', async () => {
  const f = fixture();
  const plan = await prep('kimi', f);
  const file = join(f.runDir, 'kimi-mcp.json');
  assert.equal(plan.command, join(f.binDir, 'kimi'));
  assert.deepEqual(plan.args, ['--mcp-config-file', file]);
  assert.deepEqual(readJson(file), {
    mcpServers: { agentteam: { url: MCP_URL, transport: 'http', headers: { Authorization: 'Bearer ${AGENTTEAM_MCP_TOKEN}' } } },
  });
  const g = fixture([]);
  const alias = await prep('kimi', g, ['/home/u/.local/bin/kimi-cli', '--print']);
  assert.deepEqual(alias.args, ['--mcp-config-file', join(g.runDir, 'kimi-mcp.json'), '--print']);
});

test('command runs CMD exactly as given and adds nothing; without CMD it is invalid_input', async () => {
  const f = fixture();
  const plan = await prep('command', f, ['sh', '-c', 'echo $AGENTTEAM_MCP_URL']);
  assert.deepEqual(plan, { command: 'sh', args: ['-c', 'echo $AGENTTEAM_MCP_URL'], files: [] });
  await assert.rejects(prep('command', f), (e: unknown) => e instanceof AppError && e.code === 'invalid_input' && /needs a command/.test(e.message));
});

test('a missing binary is invalid_input naming how to install it, and leaks neither PATH nor the token', async () => {
  const installs: Record<string, string> = {
    claude: 'npm i -g @anthropic-ai/claude-code',
    codex: 'npm i -g @openai/codex',
    opencode: 'npm i -g opencode-ai',
    kimi: 'uv tool install kimi-cli',
  };
  for (const [kind, install] of Object.entries(installs)) {
    const f = fixture([]);
    await assert.rejects(prep(kind as RuntimeKind, f), (e: unknown) => {
      assert.ok(e instanceof AppError);
      assert.equal(e.code, 'invalid_input');
      assert.ok(e.message.includes(install), e.message);
      assert.ok(e.message.includes(`"${DRIVERS[kind as RuntimeKind].binaries[0]}"`));
      assert.ok(!e.message.includes(f.binDir) && !e.message.includes(TOKEN));
      return true;
    });
    assert.deepEqual(readdirSync(f.runDir), []);
  }
});

test('PATH lookup skips non-executables, directories and relative entries', async () => {
  const f = fixture([]);
  const noExec = join(f.binDir, 'claude');
  writeFileSync(noExec, '#!/bin/sh\n', { mode: 0o644 });
  chmodSync(noExec, 0o644);
  const dirBin = mkdtempSync(join(tmpdir(), 'drivers-dir-'));
  mkdirSync(join(dirBin, 'claude'));
  const good = mkdtempSync(join(tmpdir(), 'drivers-good-'));
  writeFileSync(join(good, 'claude'), '#!/bin/sh\n', { mode: 0o755 });
  const env = { PATH: ['', '.', 'relative/bin', f.binDir, dirBin, good].join(':') };
  const plan = await prepareRuntime('claude', { command: [], workdir: tmpdir(), runDir: f.runDir, mcpUrl: MCP_URL, env });
  assert.equal(plan.command, join(good, 'claude'));
});

test('the token value never appears in any file any kind writes', async () => {
  for (const kind of RUNTIME_KINDS) {
    const f = fixture();
    const plan = await prep(kind, f, kind === 'command' ? ['true'] : []);
    for (const name of readdirSync(f.runDir)) {
      const text = readFileSync(join(f.runDir, name), 'utf8');
      assert.ok(!text.includes(TOKEN), `${kind} wrote the token into ${name}`);
      assert.ok(text.includes('AGENTTEAM_MCP_TOKEN'), `${kind} config must reference the env var by name`);
    }
    assert.deepEqual(readdirSync(f.runDir).map((n) => join(f.runDir, n)).sort(), [...plan.files].sort());
    assert.ok(!JSON.stringify(plan).includes(TOKEN), `${kind} put the token into its plan`);
  }
});

test('a run directory others can enter is refused and nothing is written', async () => {
  const f = fixture();
  chmodSync(f.runDir, 0o755);
  for (const kind of ['claude', 'opencode', 'kimi'] as const) {
    await assert.rejects(prep(kind, f), (e: unknown) => e instanceof AppError && e.code === 'internal' && /not private/.test(e.message));
  }
  assert.deepEqual(readdirSync(f.runDir), []);
});

test('a pre-existing file or symlink at the config path is never written through', async () => {
  const f = fixture();
  const target = join(mkdtempSync(join(tmpdir(), 'drivers-victim-')), 'victim.txt');
  writeFileSync(target, 'original');
  symlinkSync(target, join(f.runDir, 'claude-mcp.json'));
  await assert.rejects(prep('claude', f), (e: unknown) => {
    assert.ok(e instanceof AppError && e.code === 'internal' && /EEXIST/.test(e.message));
    assert.ok(!e.message.includes(f.runDir), 'error leaks the run directory path');
    return true;
  });
  assert.equal(readFileSync(target, 'utf8'), 'original');
});

test('an unknown kind is invalid_input', async () => {
  const f = fixture();
  await assert.rejects(prep('gemini' as RuntimeKind, f), (e: unknown) => e instanceof AppError && e.code === 'invalid_input');
});

test('the Memory clone (AGENTTEAM_MEMORY_DIR) is writable: Claude gets --add-dir and an Edit rule minus .git, Codex a filesystem write entry; a path a rule cannot carry gets nothing', async () => {
  const f = fixture();
  const dir = '/home/a/.agentteam/memory/agt_x-1';
  const claude = await prepareRuntime('claude', { command: [], workdir: tmpdir(), runDir: f.runDir, mcpUrl: MCP_URL, env: { ...f.env, AGENTTEAM_MEMORY_DIR: dir } });
  assert.deepEqual(claude.args.slice(1), [`${ALLOW_CLAUDE},Edit(/${dir}/**)`, `--add-dir=${dir}`, `--disallowedTools=Edit(/${dir}/.git/**)`]);
  for (const odd of ['/home/a b/memory/x', '/home/a,Bash/x', 'relative/x', '/home/*/x']) {
    const plan = await prepareRuntime('claude', { command: [], workdir: tmpdir(), runDir: fixture().runDir, mcpUrl: MCP_URL, env: { ...f.env, AGENTTEAM_MEMORY_DIR: odd } });
    assert.deepEqual(plan.args.slice(1), [ALLOW_CLAUDE], odd);
  }
  const codex = await prepareRuntime('codex', { command: [], workdir: tmpdir(), runDir: f.runDir, mcpUrl: MCP_URL, env: { ...f.env, AGENTTEAM_MEMORY_DIR: '/m/a"b' } });
  assert.deepEqual(codex.args.slice(-2), ['-c', 'permissions.agentteam.filesystem={ "/m/a\\"b" = "write" }']);
  assert.ok(!(await prep('codex', f)).args.some((a) => a.includes('filesystem')), 'no memory dir, no entry');
});

test('every driver with a permission config denies the home there: Claude deny rules for all but the own Memory clone, Codex a "none" filesystem entry (the clone and token folder "write"), OpenCode deny rules last', async () => {
  const f = fixture();
  const home = mkdtempSync(join(tmpdir(), 'drivers-home-'));
  for (const d of ['profiles', 'run/credentials/own', 'run/credentials/other', 'run/runtimes', 'memory/agt_me', 'memory/agt_other', 'logs']) mkdirSync(join(home, d), { recursive: true });
  for (const n of ['owner.token', 'owner.json', 'server.db-wal']) writeFileSync(join(home, n), 'SECRET');
  const mem = join(home, 'memory', 'agt_me');
  const env = { ...f.env, AGENTTEAM_MEMORY_DIR: mem, AGENTTEAM_EXEC_TOKEN_FILE: join(home, 'run', 'credentials', 'own', 'token') };
  const opts = (runDir: string) => ({ command: [], workdir: tmpdir(), runDir, mcpUrl: MCP_URL, env, home });

  const claude = await prepareRuntime('claude', opts(f.runDir));
  const settingsArg = claude.args.find((a) => a.startsWith('--settings='));
  assert.ok(settingsArg, `no --settings: ${claude.args.join(' ')}`);
  const deny = (readJson(settingsArg.slice('--settings='.length)) as { permissions: { deny: string[] } }).permissions.deny;
  for (const p of ['owner.token', 'owner.json', 'server.db-wal', 'server.db', 'profiles', 'run', 'logs', 'memory/agt_other', 'daemon.json', 'server-admin.token']) {
    for (const tool of ['Read', 'Edit']) {
      assert.ok(deny.includes(`${tool}(/${join(home, p)})`), `${tool} ${p}`);
      assert.ok(deny.includes(`${tool}(/${join(home, p)}/**)`), `${tool} ${p}/**`);
    }
  }
  assert.ok(deny.includes(`Read(/${join(home, 'owner.token')}.*)`), 'temp siblings of a secret');
  // Nothing denies the own clone (a deny beats its Edit allow), nor the home or memory/ as a whole.
  assert.ok(!deny.some((r) => r.includes(mem) || r === `Read(/${home}/**)` || r === `Read(/${join(home, 'memory')}/**)`), deny.join('\n'));

  const codex = await prepareRuntime('codex', opts(fixture().runDir));
  const fsArg = codex.args.find((a) => a.startsWith('permissions.agentteam.filesystem='));
  assert.equal(fsArg, `permissions.agentteam.filesystem={ ${JSON.stringify(home)} = "none", ${JSON.stringify(mem)} = "write", ${JSON.stringify(join(home, 'run', 'credentials', 'own'))} = "write" }`);

  const oc = await prepareRuntime('opencode', opts(fixture().runDir));
  const perm = (readJson(oc.envAdd!.OPENCODE_CONFIG!) as { permission: Record<string, Record<string, string>> }).permission;
  for (const tool of ['read', 'edit', 'list', 'glob', 'grep', 'external_directory']) {
    const rules = Object.entries(perm[tool]!);
    // Absolute, and relative to the workdir and each of its ancestors (read/edit match paths relative to the worktree).
    const rel = relative(tmpdir(), home);
    for (const k of [home, `${home}/*`, rel, `${rel}/*`, home.slice(1), `${home.slice(1)}/*`]) assert.equal(perm[tool]![k], 'deny', `${tool} ${k}`);
    // The own clone comes after every deny (the last match wins) with OpenCode's defaults.
    const firstClone = rules.findIndex(([k]) => k.endsWith(join('memory', 'agt_me')) || k.endsWith(join('memory', 'agt_me', '*')));
    assert.ok(firstClone > 0 && rules.slice(firstClone).every(([k, v]) => k.includes(join('memory', 'agt_me')) && v !== 'deny'), `${tool}: ${JSON.stringify(rules)}`);
    assert.ok(rules.slice(0, firstClone).every(([, v]) => v === 'deny'));
  }
  assert.equal(perm.bash![`*${home}*`], 'deny');
  assert.equal(perm.bash!['agentteam exec *'], 'allow');
  assert.ok(Object.keys(perm.bash!).indexOf(`*${home}*`) > Object.keys(perm.bash!).indexOf('agentteam exec *'), 'the deny is the later rule');

  // A home path a rule cannot carry exactly fails closed: Claude is not started.
  const odd = mkdtempSync(join(tmpdir(), 'drivers-home-[x]-'));
  await assert.rejects(prepareRuntime('claude', { ...opts(fixture().runDir), home: odd, env: f.env }), (e: unknown) => e instanceof AppError && /home path/.test(e.message));
});
