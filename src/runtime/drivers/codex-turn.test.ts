// Tests the built codex-turn helper against a stand-in `codex app-server` (a boundary we do not own): the calls it makes,
// the thread id it prints, its declined approvals, and its exit code for completed, failed and crashed turns.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexTurnHelper } from './codex.js';

const dir = mkdtempSync(join(tmpdir(), 'codex-turn-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// The stand-in logs every message it receives to $LOG and ends the turn with $STATUS ("crash": exits mid-turn).
const FAKE = join(dir, 'codex');
writeFileSync(
  FAKE,
  `#!${process.execPath}
const fs = require('node:fs');
const log = (m) => fs.appendFileSync(process.env.LOG, JSON.stringify(m) + '\\n');
log({ argv: process.argv.slice(2) });
if (process.env.IGNORE_TERM) process.on('SIGTERM', () => {});
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
let buf = '';
process.stdin.setEncoding('utf8').on('data', (d) => {
  buf += d;
  for (let i = buf.indexOf('\\n'); i >= 0; i = buf.indexOf('\\n')) {
    const m = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    log(m);
    if (m.method === 'initialize') send({ id: m.id, result: {} });
    if (m.method === 'thread/start' || m.method === 'thread/resume') send({ id: m.id, result: { thread: { id: m.params.threadId ?? 'thr_new' } } });
    if (m.method === 'turn/start') {
      if (process.env.STATUS === 'crash') process.exit(3);
      send({ id: m.id, result: { turn: { id: 'turn_1' } } });
      send({ id: 900, method: 'item/commandExecution/requestApproval', params: {} });
      send({ method: 'turn/completed', params: { threadId: 'other', turn: { id: 'x', status: 'completed' } } });
      setTimeout(() => send({ method: 'turn/completed', params: { threadId: m.params.threadId, turn: { id: 'turn_1', status: process.env.STATUS, error: process.env.STATUS === 'failed' ? { message: 'model error' } : null } } }), 50);
    }
  }
});
`,
  { mode: 0o755 },
);

function runHelper(status: string, request: object, extraEnv: Record<string, string> = {}, codex = FAKE): Promise<{ code: number | null; stdout: string; stderr: string; log: any[] }> {
  const log = join(dir, `log-${status}-${Math.random()}`);
  writeFileSync(log, '');
  const p = spawn(process.execPath, [codexTurnHelper(), codex, '-c', 'k=v'], { env: { ...process.env, LOG: log, STATUS: status, ...extraEnv }, cwd: dir });
  let stdout = '';
  let stderr = '';
  p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  p.stdin.end(JSON.stringify(request));
  return new Promise((resolve) =>
    p.on('close', (code) => resolve({ code, stdout, stderr, log: readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) })),
  );
}

test('a completed turn: thread/start with developerInstructions, turn/start with the prompt, thread id printed, exit 0, approvals declined', async () => {
  const r = await runHelper('completed', { developerInstructions: 'STABLE', prompt: 'hello', model: 'm1' });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.log[0], { argv: ['-c', 'k=v', 'app-server'] });
  const byMethod = (name: string) => r.log.find((m) => m.method === name);
  assert.deepEqual(byMethod('thread/start').params, { cwd: dir, developerInstructions: 'STABLE', model: 'm1' });
  assert.deepEqual(byMethod('turn/start').params, { threadId: 'thr_new', input: [{ type: 'text', text: 'hello', text_elements: [] }] });
  assert.deepEqual(r.log.find((m) => m.id === 900), { id: 900, result: { decision: 'decline' } });
  assert.deepEqual(r.stdout.trim().split('\n').map((l) => JSON.parse(l)), [{ threadId: 'thr_new' }, { threadId: 'thr_new', turnId: 'turn_1', status: 'completed' }]);
});

test('a resumed turn uses thread/resume with the thread id', async () => {
  const r = await runHelper('completed', { developerInstructions: 'S', prompt: 'p', resumeId: 'thr_old' });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.log.find((m) => m.method === 'thread/resume').params, { threadId: 'thr_old', cwd: dir, developerInstructions: 'S', excludeTurns: true });
  assert.equal(r.log.find((m) => m.method === 'thread/start'), undefined);
  assert.match(r.stdout, /"threadId":"thr_old"/);
});

test('a failed turn exits 1 naming the error, still printing the thread id; a crashed app-server exits 1', async () => {
  const failed = await runHelper('failed', { developerInstructions: 'S', prompt: 'p' });
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /turn failed: model error/);
  assert.match(failed.stdout, /^\{"threadId":"thr_new"\}$/m);
  const crashed = await runHelper('crash', { developerInstructions: 'S', prompt: 'p' });
  assert.equal(crashed.code, 1);
  assert.match(crashed.stderr, /exited \(3\) before the turn completed/);
  const bad = await runHelper('completed', [] as unknown as object);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /not a turn request/);
  assert.deepEqual(bad.log, [], 'codex must not start for a malformed request');
  const missing = await runHelper('completed', { developerInstructions: 'S', prompt: 'p' }, {}, join(dir, 'no-such-codex'));
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, 'codex turn: could not run codex app-server (ENOENT)\n', 'one line, no stack trace');
});

test('the helper exits once the turn completed even when codex does not stop on SIGTERM', async () => {
  const r = await runHelper('completed', { developerInstructions: 'S', prompt: 'p' }, { IGNORE_TERM: '1' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /"status":"completed"/);
});
