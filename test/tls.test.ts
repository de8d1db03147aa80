// End-to-end: `server start --tls-cert/--tls-key` with a self-signed certificate made here; a daemon talks https to it (trusting it with --server-ca); plain http to another host is refused.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicFailure } from '../src/shared/failure.js';
import { request } from 'node:http';
import { BIN, TestDaemon, cliJson } from './harness.js';
import { serverClient } from '../src/domains/registry.js';

const dir = mkdtempSync(join(tmpdir(), 'agentteam-tls-'));
let server: ChildProcess | undefined;
const d = new TestDaemon();
after(async () => {
  await d.dispose();
  server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

function firstLine(child: ChildProcess): Promise<{ url: string; serverId: string }> {
  return new Promise((res, rej) => {
    let buf = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      buf += c;
      if (buf.includes('\n')) res(JSON.parse(buf.split('\n')[0]!));
    });
    child.once('exit', (code) => rej(new Error(`server exited ${code}`)));
  });
}

test('https end to end: self-signed server certificate, daemon over https with --server-ca; untrusted certificates and plain http to other hosts refused', async () => {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  const db = join(dir, 'team.db');
  server = spawn(process.execPath, [BIN, 'server', 'start', '--port', '0', '--db', `sqlite:${db}`, '--tls-cert', cert, '--tls-key', key], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { url, serverId } = await firstLine(server);
  assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/);
  const port = new URL(url).port;

  // Without trusting the certificate, a client refuses the server (typed, no credential sent).
  const untrusting = serverClient({ baseUrl: url });
  await assert.rejects(untrusting.info(), (e: unknown) => (e as { code?: string }).code === 'upstream_unavailable');
  // What an agent's tool call says of it: not trusted, not "could not be reached" with a retry hint (failed before).
  const seen = await untrusting.info().then(() => undefined, (e: unknown) => publicFailure(e));
  assert.deepEqual(seen, { code: 'upstream_unavailable', message: "the AgentTeam server's certificate is not trusted by this daemon", hint: 'retrying will not help: ask the daemon owner to check the server CA' });
  untrusting.close();
  const trusting = serverClient({ baseUrl: `https://localhost:${port}`, ca: readFileSync(cert) });
  assert.equal((await trusting.health()).database, 'ok');
  trusting.close();

  const admin = readFileSync(`${db}.admin-token`, 'utf8').trim();
  const start = await d.run(['daemon', 'start', '--server-url', url, '--server-id', serverId, '--server-ca', cert], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: admin } });
  assert.equal(start.code, 0, start.stderr);
  const s = cliJson(start);
  d.pid = s.pid;
  assert.equal(s.server.url, url);
  assert.equal(s.server.database, 'ok');
  assert.equal((await d.run(['message', 'post', '--target', 'channel:general', 'over tls'])).code, 0);
  assert.equal(cliJson(await d.run(['message', 'ls', '--target', 'channel:general'])).messages[0].content, 'over tls');
  // An IP-address URL is checked against the certificate's IP SAN without sending it as SNI: no DEP0123 warning.
  assert.doesNotMatch(readFileSync(join(d.home, 'logs', 'daemon.out'), 'utf8'), /DEP0123|TLS ServerName/);
  assert.equal(start.stderr.includes('DEP0123'), false);

  // An untrusted certificate is said as such with its fix, never as "unreachable", on init, init --invite and daemon start.
  const inv = cliJson(await d.run(['member', 'invite', '--name', 'Ana', '--json']));
  for (const args of [['init', '--server-url', url], ['init', '--server-url', url, '--invite', inv.code], ['daemon', 'start', '--server-url', url, '--server-id', serverId]]) {
    const fresh = new TestDaemon();
    try {
      const r = await fresh.run(args, { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: admin } });
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /the server's certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\): pass --server-ca FILE/, args.join(' '));
      assert.doesNotMatch(r.stderr, /unreachable|retrying/, args.join(' '));
    } finally {
      await fresh.dispose();
    }
  }
  // The invite was not spent by the refused join.
  const ana = new TestDaemon();
  try {
    const joined = await ana.run(['init', '--server-url', url, '--server-ca', cert, '--invite', inv.code]);
    assert.equal(joined.code, 0, joined.stderr);
    ana.pid = cliJson(joined).pid;
  } finally {
    await ana.dispose();
  }

  // Security invariant: plain http to a non-loopback host is refused before anything is sent.
  const plain = await new TestDaemon().run(['daemon', 'start', '--server-url', 'http://team.example:7700', '--server-id', serverId]);
  assert.equal(plain.code, 2);
  assert.match(plain.stderr, /refusing plain http to team\.example/);
  assert.throws(() => serverClient({ baseUrl: 'http://10.1.2.3:7700' }), /refusing plain http/);
});

test('--host off loopback needs --allowed-host; the Host allowlist is enforced before routing', async () => {
  const db = join(dir, 'named.db');
  const bad = spawn(process.execPath, [BIN, 'server', 'start', '--port', '0', '--db', `sqlite:${db}`, '--host', '127.0.0.2'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  bad.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const code = await new Promise<number | null>((r) => bad.once('exit', r));
  assert.notEqual(code, 0);
  assert.match(err, /--allowed-host/);

  // Off loopback without TLS: refused unless a TLS proxy in front is declared.
  const plain = spawn(process.execPath, [BIN, 'server', 'start', '--port', '0', '--db', `sqlite:${db}`, '--host', '127.0.0.2', '--allowed-host', 'team.example'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let plainErr = '';
  plain.stderr!.setEncoding('utf8').on('data', (c: string) => (plainErr += c));
  assert.notEqual(await new Promise<number | null>((r) => plain.once('exit', r)), 0);
  assert.match(plainErr, /needs TLS/);

  const named = spawn(process.execPath, [BIN, 'server', 'start', '--port', '0', '--db', `sqlite:${db}`, '--host', '127.0.0.2', '--allowed-host', 'team.example', '--tls-proxy'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const { url } = await firstLine(named);
    const port = Number(new URL(url).port);
    const ask = (host: string, more: Record<string, string> = {}) =>
      new Promise<number>((res, rej) => {
        const req = request({ host: '127.0.0.2', port, path: '/v1/server', headers: { host, ...more } }, (r) => (r.resume(), res(r.statusCode ?? 0)));
        req.on('error', rej);
        req.end();
      });
    assert.equal(await ask(`team.example:${port}`), 200);
    assert.equal(await ask('evil.example'), 403);
    assert.equal(await ask(`team.example.evil.example:${port}`), 403);
    // Origin spoofing: a browser page elsewhere cannot ride the allowed Host.
    assert.equal(await ask(`team.example:${port}`, { origin: 'https://evil.example' }), 403);
    assert.equal(await ask(`team.example:${port}`, { origin: 'https://team.example.evil.example' }), 403);
    assert.equal(await ask(`team.example:${port}`, { origin: 'https://team.example' }), 200);
    assert.equal(await ask(`127.0.0.2:${port}`, { origin: 'http://evil.example' }), 403);
  } finally {
    named.kill('SIGTERM');
  }
});
