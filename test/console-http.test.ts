// End-to-end over plain HTTP: the console's security rules on a real daemon (one-time link, cookie flags, origin, CSRF, no bearer, no secrets).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestDaemon, cliJson, http, runExecSteps, type HttpResult } from './harness.js';

const d = new TestDaemon();
const wd = mkdtempSync(join(tmpdir(), 'agentteam-console-'));
let mcp = '';
let exec = '';
let mcpPath = '';
let runId = '';

before(async () => {
  await d.start();
  const a = await d.addAgent('watcher');
  const serverId = cliJson(await d.run(['daemon', 'status'])).server.serverId;
  mcpPath = `/api/internal/mcp/servers/${serverId}/agents/${a.id}`;
  const r = await d.run(['runtime', 'start', '--agent', 'watcher', '--workdir', wd, '--detach', '--', 'sh', '-c', `printf '%s %s' "$(cat "$AGENTTEAM_EXEC_TOKEN_FILE")" "$AGENTTEAM_MCP_TOKEN" > tokens.txt; sleep 120`]);
  assert.equal(r.code, 0, r.stderr);
  runId = r.stdout.trim();
  for (let i = 0; i < 100 && !existsSync(join(wd, 'tokens.txt')); i++) await new Promise((res) => setTimeout(res, 50));
  await new Promise((res) => setTimeout(res, 50));
  [exec, mcp] = readFileSync(join(wd, 'tokens.txt'), 'utf8').split(' ') as [string, string];
});
after(async () => {
  await d.dispose();
  rmSync(wd, { recursive: true, force: true });
});

const origin = () => `http://127.0.0.1:${d.port}`;
const host = () => `127.0.0.1:${d.port}`;

/** Every login secret and session secret handed out, for the log check. */
const issued: string[] = [];

async function link(): Promise<string> {
  const r = await d.run(['console', '--no-open']);
  assert.equal(r.code, 0, r.stderr);
  const url = r.stdout.trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/console\/login\?t=[A-Za-z0-9_-]{43}$/);
  issued.push(new URL(url).searchParams.get('t')!);
  return url;
}

/** Logs in with a fresh link: the session cookie (name=value) and the page's CSRF token. */
async function login(): Promise<{ cookie: string; csrf: string }> {
  const url = new URL(await link());
  const r = await http(d.port, 'GET', url.pathname + url.search, { headers: { host: host() } });
  assert.equal(r.status, 303);
  const cookie = String(r.headers['set-cookie']).split(';')[0]!;
  const page = await http(d.port, 'GET', '/console/', { headers: { host: host(), cookie } });
  assert.equal(page.status, 200);
  const csrf = /name="csrf-token" content="([A-Za-z0-9_-]{43})"/.exec(page.body)?.[1];
  assert.ok(csrf, 'the page carries its CSRF token');
  return { cookie, csrf };
}

const post = (s: { cookie: string; csrf?: string }, path: string, body: unknown, extra: Record<string, string> = {}): Promise<HttpResult> =>
  http(d.port, 'POST', path, { headers: { host: host(), origin: origin(), cookie: s.cookie, 'content-type': 'application/json', ...(s.csrf ? { 'x-csrf-token': s.csrf } : {}), ...extra }, body: JSON.stringify(body) });

test('the login link is one-time: it sets an HttpOnly SameSite=Strict Path=/console cookie once, and is then spent', async () => {
  const url = new URL(await link());
  const first = await http(d.port, 'GET', url.pathname + url.search, { headers: { host: host() } });
  assert.equal(first.status, 303);
  assert.equal(first.headers.location, '/console/');
  const cookie = String(first.headers['set-cookie']);
  assert.match(cookie, new RegExp(`^agentteam_console_${d.port}=[A-Za-z0-9_-]{43}; `));
  for (const flag of ['HttpOnly', 'SameSite=Strict', 'Path=/console']) assert.ok(cookie.split('; ').includes(flag), `${flag} in ${cookie}`);
  assert.match(String(first.headers['content-security-policy']), /default-src 'self'; script-src 'self'/);
  const again = await http(d.port, 'GET', url.pathname + url.search, { headers: { host: host() } });
  assert.equal(again.status, 403, 'a spent link logs nobody in');
  assert.equal(again.headers['set-cookie'], undefined);
  // A made-up token of the right shape, and none at all, are refused the same way.
  for (const q of ['?t=' + 'A'.repeat(43), '']) assert.equal((await http(d.port, 'GET', `/console/login${q}`, { headers: { host: host() } })).status, 403);
  // The page and the API need the cookie.
  assert.equal((await http(d.port, 'GET', '/console/', { headers: { host: host() } })).status, 403);
  assert.equal((await http(d.port, 'GET', '/console/api/state', { headers: { host: host() } })).status, 403);
  assert.equal((await http(d.port, 'GET', '/console/api/state', { headers: { host: host(), cookie: cookie.split(';')[0]! } })).status, 200);
});

test('a mutation needs the CSRF token and this origin: without either it is refused and nothing is posted', async () => {
  const s = await login();
  const count = async () => cliJson(await d.run(['message', 'ls', '--target', 'channel:general', '--limit', '100'])).messages.length;
  const before = await count();
  const body = { target: 'channel:general', content: 'from the console' };
  assert.equal((await post({ cookie: s.cookie }, '/console/api/messages', body)).status, 403, 'no CSRF token');
  assert.equal((await post({ cookie: s.cookie, csrf: 'B'.repeat(43) }, '/console/api/messages', body)).status, 403, 'a wrong CSRF token');
  assert.equal((await post(s, '/console/api/messages', body, { origin: 'http://evil.example' })).status, 403, 'a foreign Origin');
  assert.equal((await post(s, '/console/api/messages', body, { origin: 'http://127.0.0.1:1' })).status, 403, 'another loopback origin');
  assert.equal((await post(s, '/console/api/messages', body, { 'sec-fetch-site': 'cross-site' })).status, 403, 'a cross-site fetch');
  assert.equal((await post(s, '/console/api/messages', body, { 'content-type': 'text/plain' })).status, 403, 'a CORS-simple content type');
  const noOrigin = await http(d.port, 'POST', '/console/api/messages', { headers: { host: host(), cookie: s.cookie, 'content-type': 'application/json', 'x-csrf-token': s.csrf }, body: JSON.stringify(body) });
  assert.equal(noOrigin.status, 403, 'a mutation without Origin');
  assert.equal(await count(), before, 'nothing was posted');
  const ok = await post(s, '/console/api/messages', body);
  assert.equal(ok.status, 201, ok.body);
  assert.equal(JSON.parse(ok.body).data.author.kind, 'human');
  assert.equal(await count(), before + 1);
  // A foreign Origin or a non-loopback Host is refused on reads too.
  assert.equal((await http(d.port, 'GET', '/console/api/state', { headers: { host: host(), cookie: s.cookie, origin: 'http://evil.example' } })).status, 403);
  assert.equal((await http(d.port, 'GET', '/console/api/state', { headers: { host: 'evil.example', cookie: s.cookie } })).status, 403);
});

test('console routes take no bearer: the runtime MCP and Exec credentials and the owner token are refused there, while the MCP one still works on its own route', async () => {
  const s = await login();
  for (const bearer of [mcp, exec, d.ownerToken()]) {
    for (const path of ['/console/api/state', '/console/api/conversations', '/console/']) {
      const r = await http(d.port, 'GET', path, { headers: { host: host(), authorization: `Bearer ${bearer}` } });
      assert.equal(r.status, 403, path);
      // Not even beside a valid session cookie.
      assert.equal((await http(d.port, 'GET', path, { headers: { host: host(), cookie: s.cookie, authorization: `Bearer ${bearer}` } })).status, 403);
    }
  }
  const list = await http(d.port, 'POST', mcpPath, { headers: { host: host(), authorization: `Bearer ${mcp}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
  assert.equal(list.status, 200, 'the runtime credential itself is live');
  // The login-link route takes only the owner token.
  assert.equal((await http(d.port, 'POST', '/api/daemon/console/link', { headers: { host: host(), authorization: `Bearer ${mcp}` } })).status, 403);
});

test('the console state shows the runtime and its credential by id, never a secret; stopping it revokes the credential', async () => {
  const s = await login();
  const state = await http(d.port, 'GET', '/console/api/state', { headers: { host: host(), cookie: s.cookie } });
  const data = JSON.parse(state.body).data;
  assert.ok(data.runtimes.some((r: { runId: string; status: string }) => r.runId === runId && r.status === 'running'));
  const auth = data.credentials.authorizations.find((a: { runId: string }) => a.runId === runId);
  assert.ok(auth, 'the runtime holds an authorization');
  assert.equal(auth.agentName, 'watcher');
  assert.ok(auth.generations.length >= 1 && auth.generations[0].expiresAt > data.credentials.now);
  assert.deepEqual(data.credentials.gauges.global.limit, 1024);
  assert.deepEqual(data.credentials.gauges.dispatcher.limit, 512);
  assert.ok(data.credentials.denials.some((x: { class: string }) => x.class.startsWith('console:')), 'the refusals above are counted by class');
  const everything = [state.body, (await http(d.port, 'GET', '/console/api/conversations', { headers: { host: host(), cookie: s.cookie } })).body, (await http(d.port, 'GET', '/console/', { headers: { host: host(), cookie: s.cookie } })).body].join('\n');
  for (const secret of [mcp, exec, d.ownerToken(), join(d.home, 'credentials'), wd]) assert.ok(!everything.includes(secret), 'no secret or credential path reaches the page');
  const stopped = await post(s, `/console/api/runtimes/${runId}/stop`, {});
  assert.equal(stopped.status, 200, stopped.body);
  const after = JSON.parse((await http(d.port, 'GET', '/console/api/state', { headers: { host: host(), cookie: s.cookie } })).body).data;
  assert.ok(!after.credentials.authorizations.some((a: { runId: string; state: string }) => a.runId === runId && a.state === 'active'), 'the credential is revoked');
  assert.ok(after.runtimes.some((r: { runId: string; status: string }) => r.runId === runId && r.status === 'exited'));
  // Nothing the console handled left a secret in the daemon's logs either.
  const logs = d.allText();
  assert.ok(issued.length >= 2);
  for (const secret of [s.cookie.split('=')[1]!, s.csrf, ...issued]) assert.ok(!logs.includes(secret), 'session secrets are never logged');
});

test('agentteam console opens the link with $BROWSER (the URL as one argument, no shell) and prints it', async () => {
  const script = join(wd, 'browser.mjs');
  writeFileSync(script, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(join(wd, 'opened.txt'))}, JSON.stringify(process.argv.slice(2)));`);
  const r = await d.run(['console'], { env: { BROWSER: `${process.execPath} ${script}` } });
  assert.equal(r.code, 0, r.stderr);
  const url = r.stdout.trim();
  for (let i = 0; i < 100 && !existsSync(join(wd, 'opened.txt')); i++) await new Promise((res) => setTimeout(res, 50));
  // The browser's command line (readable by every local user while it starts) names a private page, never the link.
  const argv = JSON.parse(readFileSync(join(wd, 'opened.txt'), 'utf8')) as string[];
  assert.equal(argv.length, 1);
  assert.ok(!argv[0]!.includes(new URL(url).search.slice(1)) && !argv[0]!.includes('code'), 'the login code is not on the command line');
  const page = fileURLToPath(argv[0]!);
  assert.equal(statSync(page).mode & 0o777, 0o600);
  // The page sends the browser on to the link: following it logs in once.
  const href = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(readFileSync(page, 'utf8'))![1]!.replaceAll('&amp;', '&');
  assert.equal(href, url);
  const u = new URL(href);
  const first = await http(d.port, 'GET', u.pathname + u.search, { headers: { host: host() } });
  assert.equal(first.status, 303);
  assert.match(String(first.headers['set-cookie']), /HttpOnly/);
  const none = await d.run(['console'], { env: { BROWSER: '', PATH: '/nonexistent' } });
  assert.equal(none.code, 0);
  assert.match(none.stderr, /no browser to open it/);
});

test('logging out ends the session: the cookie is cleared and no longer admits', async () => {
  const s = await login();
  const out = await post(s, '/console/api/logout', {});
  assert.equal(out.status, 200);
  assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
  assert.equal((await http(d.port, 'GET', '/console/api/state', { headers: { host: host(), cookie: s.cookie } })).status, 403);
});

const getJson = (s: { cookie: string }, path: string, extra: Record<string, string> = {}) => http(d.port, 'GET', path, { headers: { host: host(), cookie: s.cookie, ...extra } });

test('boards continue past their first page with the keyset cursor, and every task shown carries its reviews (the 21st+ too)', async () => {
  const steps: unknown[] = Array.from({ length: 23 }, (_, i) => ({ name: `t${i}`, run: ['task', 'create'], input: { title: `Paged task ${String(i).padStart(2, '0')}` } }));
  // The oldest task (the last of the list, on page 2) has one review; the newest has 11 (one more than a board reads).
  steps.push({ name: 'r0', run: ['review', 'add'], input: { target: 'task:${t0.data.task.id}', verdict: 'comment', body: 'on the second page' } });
  for (let i = 0; i < 11; i++) steps.push({ name: `n${i}`, run: ['review', 'add'], input: { target: 'task:${t22.data.task.id}', verdict: 'comment', body: `note ${i}` } });
  const made = await runExecSteps(d, 'watcher', steps);
  assert.equal(made.n10.code, 0, JSON.stringify(made.n10));
  const s = await login();
  type Task = { id: string; title: string; reviews: { items: Array<{ body: string }>; more: boolean; nextCursor?: string } };
  const first = JSON.parse((await getJson(s, '/console/api/boards')).body).data.tasks as { items: Task[]; hasMore: boolean; nextCursor: string };
  assert.equal(first.items.length, 20);
  assert.equal(first.hasMore, true);
  const second = await getJson(s, `/console/api/boards/tasks?cursor=${encodeURIComponent(first.nextCursor)}`);
  assert.equal(second.status, 200, second.body);
  const page2 = JSON.parse(second.body).data as { items: Task[]; hasMore: boolean };
  assert.equal(page2.hasMore, false);
  const all = [...first.items, ...page2.items];
  assert.equal(new Set(all.map((t) => t.id)).size, 23, 'every task once, none skipped');
  const oldest = all.find((t) => t.title === 'Paged task 00')!;
  assert.ok(page2.items.includes(oldest), 'the oldest task is on the second page');
  assert.deepEqual(oldest.reviews.items.map((r) => r.body), ['on the second page']);
  // Every task shown was read for reviews: an unreviewed one says "none read", never "not read".
  for (const t of all) assert.ok(Array.isArray(t.reviews.items), `${t.title}: its reviews were read`);
  const busy = all.find((t) => t.title === 'Paged task 22')!;
  assert.equal(busy.reviews.items.length, 10);
  assert.equal(busy.reviews.more, true, 'a cut nested list says so');
  const rest = await getJson(s, `/console/api/boards/tasks/${busy.id}/reviews?cursor=${encodeURIComponent(busy.reviews.nextCursor!)}`);
  assert.equal(rest.status, 200, rest.body);
  assert.equal(JSON.parse(rest.body).data.items.length, 1, 'the eleventh review, one page on');
  assert.equal(JSON.parse(rest.body).data.hasMore, false);
});

test('schedules and workflow runs continue past their first page too, each with its runs or steps read', async () => {
  const steps: unknown[] = Array.from({ length: 21 }, (_, i) => ({ name: `s${i}`, run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: `Paged schedule ${i}`, cron: '0 9 * * 1', timeZone: 'UTC' } }));
  steps.push({ name: 'plan', run: ['workflow', 'plan'], input: { operation: 'create', name: 'Paged plan', steps: [{ title: 'Only step', instructions: 'x', assignee: cliJson(await d.run(['agent', 'get', 'watcher'])).id }] } });
  steps.push({ name: 'publish', run: ['workflow', 'plan'], input: { operation: 'publish', planId: '${plan.data.plan.id}', revision: '${plan.data.plan.revision}' } });
  for (let i = 0; i < 21; i++) steps.push({ name: `w${i}`, run: ['workflow', 'run'], input: { operation: 'start', planId: '${plan.data.plan.id}', target: 'channel:general' } });
  const made = await runExecSteps(d, 'watcher', steps);
  assert.equal(made.s20.code, 0, JSON.stringify(made.s20));
  assert.equal(made.w20.code, 0, JSON.stringify(made.w20));
  const s = await login();
  const first = JSON.parse((await getJson(s, '/console/api/boards')).body).data;
  for (const [board, nested] of [['schedules', 'runs'], ['workflows', 'steps']] as const) {
    const b = first[board] as { items: Array<Record<string, { items: unknown[] }> & { id: string }>; hasMore: boolean; nextCursor: string };
    assert.equal(b.items.length, 20, board);
    assert.equal(b.hasMore, true, board);
    const r = await getJson(s, `/console/api/boards/${board}?cursor=${encodeURIComponent(b.nextCursor)}`);
    assert.equal(r.status, 200, r.body);
    const p2 = JSON.parse(r.body).data as typeof b;
    assert.equal(p2.hasMore, false, board);
    const all = [...b.items, ...p2.items];
    assert.equal(new Set(all.map((x) => x.id)).size, 21, `${board}: every item once`);
    for (const x of all) assert.ok(Array.isArray(x[nested]!.items), `${board} ${x.id}: its ${nested} were read`);
  }
  const oldestRun = (JSON.parse((await getJson(s, `/console/api/boards/workflows?cursor=${encodeURIComponent(first.workflows.nextCursor)}`)).body).data.items as Array<{ id: string; steps: { items: Array<{ title: string }> } }>).at(-1)!;
  assert.equal(oldestRun.id, made.w0.out.data.run.id);
  assert.deepEqual(oldestRun.steps.items.map((x) => x.title), ['Only step']);
});

test('the board routes refuse a missing session, a foreign Origin, a bad cursor and an unknown query parameter', async () => {
  const s = await login();
  const routes = ['/console/api/boards', '/console/api/boards/tasks', '/console/api/boards/approvals', '/console/api/boards/tasks/tsk1/reviews', '/console/api/boards/schedules/sch1/runs', '/console/api/boards/workflows/wfr1/steps'];
  for (const path of routes) {
    assert.equal((await http(d.port, 'GET', path, { headers: { host: host() } })).status, 403, `${path}: no cookie`);
    assert.equal((await getJson({ cookie: `agentteam_console_${d.port}=${'C'.repeat(43)}` }, path)).status, 403, `${path}: a made-up session`);
    assert.equal((await getJson(s, path, { origin: 'http://evil.example' })).status, 403, `${path}: foreign Origin`);
    assert.equal((await getJson(s, path, { 'sec-fetch-site': 'cross-site' })).status, 403, `${path}: cross-site`);
    assert.equal((await getJson(s, path, { host: 'evil.example' })).status, 403, `${path}: foreign Host`);
    const posted = await http(d.port, 'POST', path, { headers: { host: host(), origin: origin(), cookie: s.cookie, 'content-type': 'application/json', 'x-csrf-token': s.csrf }, body: '{}' });
    assert.equal(posted.status, 400, `${path}: GET only`);
    assert.equal(posted.headers.allow, 'GET');
    const unknown = await getJson(s, `${path}?limit=500`);
    assert.equal(unknown.status, 400, `${path}: unknown parameter`);
    assert.equal(JSON.parse(unknown.body).error.code, 'invalid_input');
    assert.match(JSON.parse(unknown.body).error.message, /unknown query parameter: limit/);
  }
  for (const path of routes.slice(1)) {
    for (const cursor of ['<script>', 'a b', 'x'.repeat(4097), '', 'abc~def', '1~tsk1~AAAAAAAAAAAAAAAA']) {
      const r = await getJson(s, `${path}?cursor=${encodeURIComponent(cursor)}`);
      // A real item id of an unknown item is a 404 from the server only after the cursor passes; a bad cursor is 400 first.
      if (path.includes('/tsk1/') || path.includes('/sch1/') || path.includes('/wfr1/')) assert.ok([400, 404].includes(r.status), `${path} ${cursor}: ${r.status}`);
      else assert.equal(r.status, 400, `${path} cursor ${cursor.slice(0, 20)}: ${r.body}`);
      if (r.status === 400) assert.equal(JSON.parse(r.body).error.code, 'invalid_input');
    }
    assert.equal((await getJson(s, `${path}?cursor=a&cursor=b`)).status, 400, 'a cursor given twice');
  }
  // A cursor of one board is refused by another (the server binds each cursor to its list).
  const tasks = JSON.parse((await getJson(s, '/console/api/boards')).body).data.tasks;
  assert.ok(tasks.nextCursor);
  const crossed = await getJson(s, `/console/api/boards/approvals?cursor=${encodeURIComponent(tasks.nextCursor)}`);
  assert.equal(crossed.status, 400, crossed.body);
  assert.match(JSON.parse(crossed.body).error.message, /cursor refused/);
  assert.equal((await getJson(s, '/console/api/boards/secrets')).status, 404);
  assert.equal((await getJson(s, '/console/api/boards/tasks/tsk1/runs')).status, 404, 'a detail of another board');
  assert.equal((await getJson(s, '/console/api/boards/tasks/tsk1/constructor')).status, 404);
  // Other console reads take only their own parameters too.
  assert.equal((await getJson(s, '/console/api/state?x=1')).status, 400);
  assert.equal((await getJson(s, '/console/api/messages?target=channel:general&target=channel:other')).status, 400);
});

/** An event stream opened with this cookie: its status, the text so far, and a promise of its end. */
function stream(cookie: string | undefined, path = '/console/api/events'): Promise<{ status: number; text: () => string; ended: Promise<void>; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: d.port, path, headers: { host: host(), ...(cookie ? { cookie } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => void (text += c));
      const ended = new Promise<void>((r) => res.on('close', r));
      resolve({ status: res.statusCode ?? 0, text: () => text, ended, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

test('attacker pass: the event stream needs a live session and ends when it is logged out', async () => {
  const none = await stream(undefined);
  assert.equal(none.status, 403);
  await none.ended;
  assert.doesNotMatch(none.text(), /event:/);
  const s = await login();
  assert.equal((await stream(s.cookie, '/console/api/events?target=channel:general&x=1')).status, 400, 'unknown parameter');
  const live = await stream(s.cookie);
  assert.equal(live.status, 200);
  for (let i = 0; i < 100 && !live.text().includes('event: state'); i++) await new Promise((r) => setTimeout(r, 20));
  assert.match(live.text(), /event: state/);
  assert.equal((await post(s, '/console/api/logout', {})).status, 200);
  await live.ended;
  assert.match(live.text(), /event: ended\ndata: \{"reason":"session"\}\n\n$/, 'the open stream is told and closed');
  const again = await stream(s.cookie);
  assert.equal(again.status, 403, 'and a reconnect is refused');
  await again.ended;
});

test('attacker pass: a cookie set before login is never adopted, a new login ends the session the browser held, a replayed link logs nobody in', async () => {
  // Fixation: a value planted in the browser before login stays worthless; login hands out its own.
  const planted = `agentteam_console_${d.port}=${'F'.repeat(43)}`;
  const url = new URL(await link());
  const r = await http(d.port, 'GET', url.pathname + url.search, { headers: { host: host(), cookie: planted } });
  assert.equal(r.status, 303);
  const fresh = String(r.headers['set-cookie']).split(';')[0]!;
  assert.notEqual(fresh, planted);
  assert.equal((await getJson({ cookie: planted }, '/console/api/state')).status, 403);
  assert.equal((await getJson({ cookie: fresh }, '/console/api/state')).status, 200);
  // A replay of that link (with or without the session it made) is refused and changes nothing.
  for (const cookie of [undefined, fresh]) {
    const replay = await http(d.port, 'GET', url.pathname + url.search, { headers: { host: host(), ...(cookie ? { cookie } : {}) } });
    assert.equal(replay.status, 403);
    assert.equal(replay.headers['set-cookie'], undefined);
  }
  assert.equal((await getJson({ cookie: fresh }, '/console/api/state')).status, 200, 'a refused replay does not end the session');
  // Two requests racing with one link: exactly one logs in.
  const raced = new URL(await link());
  const both = await Promise.all([0, 1].map(() => http(d.port, 'GET', raced.pathname + raced.search, { headers: { host: host() } })));
  assert.deepEqual(both.map((x) => x.status).sort(), [303, 403]);
  // A new login from a browser that holds a session replaces it: the old session id no longer admits anyone.
  const next = new URL(await link());
  const relog = await http(d.port, 'GET', next.pathname + next.search, { headers: { host: host(), cookie: fresh } });
  assert.equal(relog.status, 303);
  const newer = String(relog.headers['set-cookie']).split(';')[0]!;
  assert.notEqual(newer, fresh);
  assert.equal((await getJson({ cookie: fresh }, '/console/api/state')).status, 403, 'the replaced session ended');
  assert.equal((await getJson({ cookie: newer }, '/console/api/state')).status, 200);
});

test("attacker pass: a CSRF token works only with its own session, and not after that session's logout", async () => {
  const a = await login();
  const b = await login();
  const body = { target: 'channel:general', content: 'crossed token' };
  const count = async () => cliJson(await d.run(['message', 'ls', '--target', 'channel:general', '--limit', '100'])).messages.length;
  const before = await count();
  assert.equal((await post({ cookie: b.cookie, csrf: a.csrf }, '/console/api/messages', body)).status, 403, "a's token with b's session");
  assert.equal((await post({ cookie: a.cookie, csrf: b.csrf }, '/console/api/messages', body)).status, 403, "b's token with a's session");
  assert.equal((await post(a, '/console/api/logout', {})).status, 200);
  const c = await login();
  assert.notEqual(c.csrf, a.csrf, 'a new session has a new token');
  assert.equal((await post({ cookie: c.cookie, csrf: a.csrf }, '/console/api/messages', body)).status, 403, 'a logged-out session token with a new session');
  assert.equal((await post(a, '/console/api/messages', body)).status, 403, 'the logged-out pair');
  assert.equal(await count(), before, 'nothing was posted');
  assert.equal((await post(c, '/console/api/messages', body)).status, 201);
});

test('the login link from another site: a top-level navigation logs in through an onward page of this origin; anything else is refused and spends nothing', async () => {
  const url = new URL(await link());
  const path = url.pathname + url.search;
  const nav = { host: host(), 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
  // A fetch, a frame or an image from another site is no navigation: refused before the link is looked at.
  for (const h of [{ ...nav, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }, { ...nav, 'sec-fetch-dest': 'iframe' }, { ...nav, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }]) {
    const r = await http(d.port, 'GET', path, { headers: h });
    assert.equal(r.status, 403, JSON.stringify(h));
    assert.equal(r.headers['set-cookie'], undefined);
  }
  // The navigation (as from agentteam console's file:// page) logs in: the cookie, and a page that goes on from here
  // (a redirect would stay cross-site, and the SameSite=Strict cookie would not go with it).
  const r = await http(d.port, 'GET', path, { headers: nav });
  assert.equal(r.status, 200);
  assert.match(String(r.headers['set-cookie']), /HttpOnly; .*SameSite=Strict/);
  assert.match(r.body, /http-equiv="refresh" content="0;url=\/console\/"/);
  const cookie = String(r.headers['set-cookie']).split(';')[0]!;
  assert.equal((await http(d.port, 'GET', '/console/', { headers: { host: host(), cookie, 'sec-fetch-site': 'same-origin' } })).status, 200);
  // Spent: the same link again, from anywhere, is refused.
  assert.equal((await http(d.port, 'GET', path, { headers: nav })).status, 403);
  assert.equal((await http(d.port, 'GET', path, { headers: { host: host() } })).status, 403);
  // A console page itself is still same-origin only, navigation or not.
  assert.equal((await http(d.port, 'GET', '/console/', { headers: { ...nav, cookie } })).status, 403);
});
