// Tests the built `agentteam exec` binary: help/schemas without credentials, exit codes 0–5, fail-closed credentials, no secret leaks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { startExecHarness, type ExecHarness } from '../../domains/test-exec.js';

const repo = new URL('../../../', import.meta.url).pathname;
let dir: string;
let bin: string;
let h: ExecHarness;

/** Bundles the exec entry exactly like scripts/build.mjs does, next to a copy of bin/agentteam (independent of other entries). */
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentteam-exec-cli-'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(repo, 'bin/agentteam'), join(dir, 'bin/agentteam'));
  bin = join(dir, 'bin/agentteam');
  await build({
    bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
    external: ['better-sqlite3', 'pino', 'thread-stream', 'pino-pretty'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    entryPoints: { exec: join(repo, 'src/cli/exec/main.ts') }, outdir: join(dir, 'dist'), outExtension: { '.js': '.mjs' },
  });
  h = await startExecHarness();
});
after(async () => {
  await h.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Run { code: number; stdout: string; stderr: string }

function exec(args: string[], env: Record<string, string> = {}, stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'exec', ...args], { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

const envelope = (r: Run) => JSON.parse(r.stdout.trim());
const creds = (file: string) => ({ AGENTTEAM_EXEC_BASE_URL: h.baseUrl, AGENTTEAM_EXEC_TOKEN_FILE: file });

function assertNoSecrets(r: Run, file?: string) {
  for (const s of [h.token, ...(file ? [file] : [])]) {
    assert.ok(!r.stdout.includes(s) && !r.stderr.includes(s), 'no token or token file path in output');
  }
}

test('the exec bundle carries no daemon or server code', () => {
  const text = readFileSync(join(dir, 'dist/exec.mjs'), 'utf8');
  for (const needle of ['better-sqlite3', 'pino', 'RuntimeAuthorizationStore', 'startServer', 'createServer(']) assert.ok(!text.includes(needle), needle);
});

test('help and schemas need no credentials', async () => {
  const root = await exec(['--help']);
  assert.equal(root.code, 0);
  assert.match(root.stdout, /Domains:\n {2}task/);
  const domain = await exec(['task', '--help']);
  assert.equal(domain.code, 0);
  assert.match(domain.stdout, /complete/);
  const action = await exec(['review', 'add', '--help']);
  assert.equal(action.code, 0);
  assert.match(action.stdout, /^Usage: agentteam exec review add /);
  const input = JSON.parse((await exec(['task', 'create', '--input-schema'])).stdout);
  assert.equal(input.additionalProperties, false);
  assert.deepEqual(input.required, ['title']);
  const output = JSON.parse((await exec(['task', 'list', '--output-schema'])).stdout);
  assert.ok(output.properties.hasMore);
  const err = await exec(['--error-schema']);
  assert.equal(err.code, 0);
  assert.equal(JSON.parse(err.stdout).properties.ok.const, false);
});

test('usage and input errors exit 2 with an envelope and send nothing', async () => {
  const unknownDomain = await exec(['nope', 'list'], creds('/nonexistent'));
  assert.equal(unknownDomain.code, 2);
  assert.equal(envelope(unknownDomain).error.code, 'invalid_input');
  const unknownAction = await exec(['task', 'fly']);
  assert.equal(unknownAction.code, 2);
  const badJson = await exec(['task', 'create', '{"title":'], creds('/nonexistent'));
  assert.equal(badJson.code, 2);
  assert.equal(envelope(badJson).error.code, 'invalid_input');
  const invalid = await exec(['task', 'create', '{"title":"x","extra":1}']);
  assert.equal(invalid.code, 2);
  assert.equal(envelope(invalid).error.code, 'validation_failed');
  assert.match(envelope(invalid).error.message, /\/extra/);
  const missing = await exec(['task', 'create']);
  assert.equal(missing.code, 2, 'an input that does not accept {} cannot be omitted');
  const noAction = await exec(['task']);
  assert.equal(noAction.code, 2);
});

test('the credential source fails closed with exit 3, without falling back to AGENTTEAM_EXEC_TOKEN', async () => {
  const empty = join(dir, 'empty-token');
  writeFileSync(empty, '', { mode: 0o600 });
  const link = join(dir, 'link-token');
  const real = join(dir, 'real-token');
  writeFileSync(real, h.token, { mode: 0o600 });
  symlinkSync(real, link);
  const garbage = join(dir, 'garbage-token');
  writeFileSync(garbage, 'not a token\n\0', { mode: 0o600 });
  const cases: Array<[string, Record<string, string>, string | undefined]> = [
    ['no base URL', { AGENTTEAM_EXEC_TOKEN_FILE: real, AGENTTEAM_EXEC_TOKEN: h.token }, real],
    ['remote base URL', { ...creds(real), AGENTTEAM_EXEC_BASE_URL: h.baseUrl.replace('127.0.0.1', 'example.com') }, real],
    ['no token file variable, raw token set', { AGENTTEAM_EXEC_BASE_URL: h.baseUrl, AGENTTEAM_EXEC_TOKEN: h.token }, undefined],
    ['missing token file', { ...creds(join(dir, 'absent')), AGENTTEAM_EXEC_TOKEN: h.token }, join(dir, 'absent')],
    ['empty token file', { ...creds(empty), AGENTTEAM_EXEC_TOKEN: h.token }, empty],
    ['symlinked token file', creds(link), link],
    ['invalid token file', creds(garbage), garbage],
  ];
  const before = await h.agentApi.tasks.list({ limit: 100 });
  for (const [name, env, file] of cases) {
    const r = await exec(['task', 'create', '{"title":"should not exist"}'], env);
    assert.equal(r.code, 3, name);
    assert.equal(envelope(r).ok, false, name);
    assertNoSecrets(r, file);
  }
  const afterList = await h.agentApi.tasks.list({ limit: 100 });
  assert.equal(afterList.tasks.length, before.tasks.length, 'nothing was sent');
});

test('a call succeeds with exit 0, fails with exit 1, and reads JSON from stdin with -', async () => {
  const file = join(dir, 'token');
  writeFileSync(file, `${h.token}\n`, { mode: 0o600 });
  const created = await exec(['task', 'create', '{"title":"from the CLI"}'], creds(file));
  assert.equal(created.code, 0, created.stdout + created.stderr);
  const task = envelope(created).data.task;
  assert.equal(task.title, 'from the CLI');
  assertNoSecrets(created, file);
  const viaStdin = await exec(['task', 'get', '-'], creds(file), JSON.stringify({ taskId: task.id }));
  assert.equal(viaStdin.code, 0);
  assert.equal(envelope(viaStdin).data.task.id, task.id);
  const omitted = await exec(['task', 'list'], creds(file));
  assert.equal(omitted.code, 0, 'list accepts {} so the payload may be omitted');
  assert.ok(envelope(omitted).data.tasks.length >= 1);
  const missing = await exec(['task', 'get', '{"taskId":"tsk_nope"}'], creds(file));
  assert.equal(missing.code, 1);
  assert.equal(envelope(missing).error.code, 'not_found');
});

test('denied exits 4 and an unreachable daemon exits 5', async () => {
  const wrong = join(dir, 'wrong-token');
  writeFileSync(wrong, 'atx_definitelyNotAValidToken', { mode: 0o600 });
  const denied = await exec(['task', 'list'], creds(wrong));
  assert.equal(denied.code, 4);
  assert.deepEqual(envelope(denied), { ok: false, error: { code: 'denied', message: 'forbidden' } });
  const file = join(dir, 'token');
  const down = await exec(['task', 'list'], { AGENTTEAM_EXEC_BASE_URL: h.baseUrl.replace(/:\d+\//, ':9/'), AGENTTEAM_EXEC_TOKEN_FILE: file });
  assert.equal(down.code, 5);
  assert.equal(envelope(down).error.code, 'upstream_unavailable');
  assertNoSecrets(down, file);
});
