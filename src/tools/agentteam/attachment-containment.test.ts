// Tests attachment containment against real files, a real server and a real swapping process: no link, race or hard link reaches the home.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MAX_PENDING_UPLOADS } from '../../domains/message/attachments.js';
import { readBytes, uploadBytes } from '../../domains/test-server.js';
import { AttachmentBudget } from './attachment-budget.js';
import { createAgentteamHandler } from './handler.js';
import { startToolsFixture, structured, testToolDeps, type ToolsFixture } from './testkit.js';

let fx: ToolsFixture;
const home = mkdtempSync(join(tmpdir(), 'tools-home-'));
const SECRET = 'ato_the-owner-token-must-never-leave';
mkdirSync(join(home, 'run', 'credentials', 'c1'), { recursive: true });
writeFileSync(join(home, 'owner.token'), SECRET, { mode: 0o600 });
writeFileSync(join(home, 'run', 'credentials', 'c1', 'token'), `${SECRET}-exec`, { mode: 0o600 });
const h = createAgentteamHandler(testToolDeps(home));
const call = (name: string, args: unknown) => h.callTool(fx.ctx(), fx.agentId, name, args);

before(async () => {
  fx = await startToolsFixture();
});
after(async () => fx.stop());

/** A process that keeps swapping `name` between a real directory and a symlink to `to` (two renames each way). */
function swapper(dir: string, name: string, to: string): ChildProcess {
  symlinkSync(to, join(dir, `${name}.link`));
  const src = `const fs=require('fs'),p=require('path');const d=${JSON.stringify(dir)},a=p.join(d,${JSON.stringify(name)}),r=a+'.real',l=a+'.link';
const end=Date.now()+30000;while(Date.now()<end){try{fs.renameSync(a,r);fs.renameSync(l,a);fs.renameSync(a,l);fs.renameSync(r,a);}catch{}}`;
  return spawn(process.execPath, ['-e', src], { stdio: 'ignore' });
}

async function stopped(c: ChildProcess): Promise<void> {
  if (c.exitCode === null) {
    const exit = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exit;
  }
}

/** Puts a swapped name back as the real directory (the swapper may stop between its renames). */
function restore(dir: string, name: string): void {
  const a = join(dir, name);
  if (existsSync(`${a}.real`)) {
    if (lstatSync(a, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(a);
    if (!existsSync(a)) renameSync(`${a}.real`, a);
  }
  if (lstatSync(a, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(a);
  rmSync(`${a}.link`, { force: true, recursive: false });
}

test('symlinked components are refused, pointing in or out; the real path works', async () => {
  mkdirSync(join(fx.workdir, 'real'), { recursive: true });
  writeFileSync(join(fx.workdir, 'real', 'f.txt'), 'inside');
  symlinkSync(join(fx.workdir, 'real'), join(fx.workdir, 'dirlink'));
  symlinkSync('real', join(fx.workdir, 'rel-dirlink'));
  symlinkSync(home, join(fx.workdir, 'homelink'));
  for (const p of ['dirlink/f.txt', 'rel-dirlink/f.txt', 'homelink/owner.token', 'real/../homelink/owner.token']) {
    const r = await call('message_send', { target: 'channel:general', content: 'x', attachments: [p] });
    assert.equal(structured(r).code, 'invalid_input', p);
    assert.ok(!JSON.stringify(r).includes(home), 'the resolved home path never reaches the model');
  }
  assert.equal(structured(await call('message_send', { target: 'channel:general', content: 'x', attachments: ['real/f.txt'] })).code, undefined);
});

test('a hard link in the workdir to a home file (owner.token, a credential file) is refused; other hard links are fine', async () => {
  linkSync(join(home, 'owner.token'), join(fx.workdir, 'innocent.txt'));
  linkSync(join(home, 'run', 'credentials', 'c1', 'token'), join(fx.workdir, 'cred.txt'));
  writeFileSync(join(fx.workdir, 'mine.txt'), 'mine');
  linkSync(join(fx.workdir, 'mine.txt'), join(fx.workdir, 'mine-too.txt'));
  for (const p of ['innocent.txt', 'cred.txt']) {
    const r = structured(await call('message_send', { target: 'channel:general', content: 'x', attachments: [p] }));
    assert.equal(r.code, 'invalid_input', p);
    assert.match(r.message, /hard link to an AgentTeam home file/);
  }
  const ok = structured(await call('message_send', { target: 'channel:general', content: 'x', attachments: ['mine-too.txt'] }));
  assert.equal(ok.code, undefined);
});

test('a home inside the workdir cannot be attached from by its own path', async () => {
  const inner = join(fx.workdir, 'nested-home');
  mkdirSync(inner);
  writeFileSync(join(inner, 'owner.token'), SECRET);
  const h2 = createAgentteamHandler(testToolDeps(inner));
  const r = structured(await h2.callTool(fx.ctx(), fx.agentId, 'message_send', { target: 'channel:general', content: 'x', attachments: ['nested-home/owner.token'] }));
  assert.equal(r.code, 'invalid_input');
  assert.match(r.message, /inside the AgentTeam home/);
});

test('race: a directory swapped for a symlink to the home while attaching never attaches a home file', async () => {
  mkdirSync(join(fx.workdir, 'sub'));
  writeFileSync(join(fx.workdir, 'sub', 'owner.token'), 'decoy');
  const c = swapper(fx.workdir, 'sub', home);
  let sent = 0;
  let refused = 0;
  try {
    for (let i = 0; i < 800; i++) {
      const r = structured(await call('message_send', { target: 'channel:general', content: `race ${i}`, attachments: ['sub/owner.token'] }));
      if (r.code === undefined) sent++;
      else refused++;
    }
  } finally {
    await stopped(c);
  }
  const page = await fx.srv.owner.messages.list({ target: 'channel:general', limit: 100 });
  for (const m of page.messages.filter((x) => x.content.startsWith('race '))) {
    for (const a of m.attachments) assert.equal((await readBytes(fx.srv.owner, a.id)).toString(), 'decoy', 'only the workdir file was ever attached');
  }
  assert.ok(sent > 0 && refused > 0, `both outcomes occurred (sent ${sent}, refused ${refused})`);
});

test('race: the save side swapped to a symlink out never writes outside the workdir', async () => {
  writeFileSync(join(fx.workdir, 'payload.txt'), 'PAYLOAD');
  const s = structured(await call('message_send', { target: 'channel:general', content: 'to save', attachments: ['payload.txt'] }));
  const att = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 1 })).messages.find((m) => m.id === s.id)!.attachments[0]!;
  const outside = mkdtempSync(join(tmpdir(), 'outside-'));
  mkdirSync(join(outside, 'attachments'));
  for (const [name, to] of [['.agentteam', outside], ['attachments', join(outside, 'attachments')]] as const) {
    const parent = name === '.agentteam' ? fx.workdir : join(fx.workdir, '.agentteam');
    mkdirSync(join(parent, name), { recursive: true });
    const c = swapper(parent, name, to);
    let saved = 0;
    try {
      for (let i = 0; i < 150; i++) {
        const r = structured(await call('message_attachment_read', { attachmentId: att.id }));
        if (r.code === undefined) {
          saved++;
          assert.equal(r.path, `.agentteam/attachments/${att.id}-payload.txt`);
        } else assert.equal(r.code, 'invalid_input');
      }
    } finally {
      await stopped(c);
      restore(parent, name);
    }
    assert.deepEqual(readdirSync(outside).sort(), ['attachments'], `nothing written in the outside folder (${name})`);
    assert.deepEqual(readdirSync(join(outside, 'attachments')), [], `nothing written in the outside attachments folder (${name})`);
    assert.ok(saved > 0, `some saves succeeded while ${name} was swapped`);
  }
});

test('a saved attachment is 0600 and streams back byte for byte', async () => {
  const data = Buffer.alloc(3 * 1024 * 1024 + 17);
  for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 0xff;
  writeFileSync(join(fx.workdir, 'big.bin'), data);
  const s = structured(await call('message_send', { target: 'channel:general', content: 'big', attachments: ['big.bin'] }));
  const att = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 5 })).messages.find((m) => m.id === s.id)!.attachments[0]!;
  const wd = mkdtempSync(join(tmpdir(), 'tools-save-'));
  const info = { ...fx.info, authorization: { ...fx.info.authorization, workdir: wd } };
  const r = structured(await h.callTool({ info, signal: new AbortController().signal, api: fx.agent }, fx.agentId, 'message_attachment_read', { attachmentId: att.id }));
  assert.equal(r.size, data.length);
  assert.ok(readFileSync(join(wd, r.path)).equals(data));
  const { statSync } = await import('node:fs');
  assert.equal(statSync(join(wd, r.path)).mode & 0o777, 0o600);
  assert.equal(statSync(join(wd, '.agentteam', 'attachments')).mode & 0o777, 0o700);
});

test('a full daemon-wide budget is a typed admission_rejected and sends or writes nothing', async () => {
  const small = createAgentteamHandler(testToolDeps(home, new AttachmentBudget(10)));
  writeFileSync(join(fx.workdir, 'twenty.txt'), 'x'.repeat(20));
  const before = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 1 })).messages[0]!.id;
  const r = await small.callTool(fx.ctx(), fx.agentId, 'message_send', { target: 'channel:general', content: 'x', attachments: ['twenty.txt'] });
  assert.equal(r.isError, true);
  assert.equal(structured(r).code, 'admission_rejected');
  assert.ok(structured(r).hint);
  assert.equal((await fx.srv.owner.messages.list({ target: 'channel:general', limit: 1 })).messages[0]!.id, before);
  const s = structured(await call('message_send', { target: 'channel:general', content: 'y', attachments: ['twenty.txt'] }));
  const att = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 1 })).messages.find((m) => m.id === s.id)!.attachments[0]!;
  const wd = mkdtempSync(join(tmpdir(), 'tools-save-'));
  const info = { ...fx.info, authorization: { ...fx.info.authorization, workdir: wd } };
  const rr = await small.callTool({ info, signal: new AbortController().signal, api: fx.agent }, fx.agentId, 'message_attachment_read', { attachmentId: att.id });
  assert.equal(structured(rr).code, 'admission_rejected');
  assert.equal(existsSync(join(wd, '.agentteam')), false);
});

test('the server refusing more waiting uploads reaches the model as admission_rejected with a hint', async () => {
  const pending = [];
  for (let i = 0; i < MAX_PENDING_UPLOADS; i++) pending.push(await uploadBytes(fx.agent, `w${i}`, 'text/plain', Buffer.from('w')));
  writeFileSync(join(fx.workdir, 'one.txt'), '1');
  const r = structured(await call('message_send', { target: 'channel:general', content: 'x', attachments: ['one.txt'] }));
  assert.equal(r.code, 'admission_rejected');
  assert.ok(r.hint);
  for (let i = 0; i < pending.length; i += 4) await fx.agent.messages.send({ target: 'channel:general', content: 'drain', attachmentIds: pending.slice(i, i + 4) });
});

test('a handler built without the home and the budget refuses every attachment but still sends plain messages', async () => {
  const bare = createAgentteamHandler();
  writeFileSync(join(fx.workdir, 'plain.txt'), 'p');
  const r = await bare.callTool(fx.ctx(), fx.agentId, 'message_send', { target: 'channel:general', content: 'x', attachments: ['plain.txt'] });
  assert.equal(r.isError, true);
  assert.equal((await bare.callTool(fx.ctx(), fx.agentId, 'message_attachment_read', { attachmentId: 'att_x' })).isError, true);
  assert.equal((await bare.callTool(fx.ctx(), fx.agentId, 'message_send', { target: 'channel:general', content: 'plain' })).isError, undefined);
});

test('AttachmentBudget never admits past its capacity and releases once', () => {
  const b = new AttachmentBudget(100);
  const r1 = b.tryAcquire(60)!;
  assert.equal(b.tryAcquire(41), undefined);
  const r2 = b.tryAcquire(40)!;
  assert.equal(b.inFlight, 100);
  r1();
  r1();
  assert.equal(b.inFlight, 40);
  r2();
  assert.equal(b.inFlight, 0);
  assert.equal(b.tryAcquire(-1), undefined);
  assert.equal(b.tryAcquire(101), undefined);
});
