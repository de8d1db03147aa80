// End-to-end in headless Chromium (Debian's chromium, driven by playwright-core) against a real daemon: log in, watch, act; screenshots kept in .tmp/console-shots/.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { TestDaemon, cliJson, runExecSteps } from './harness.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = resolve(import.meta.dirname, '..', '.tmp', 'console-shots');
const FIXTURE = join(import.meta.dirname, 'fixtures', 'console-runtime.mjs');

const d = new TestDaemon();
const wd = mkdtempSync(join(tmpdir(), 'agentteam-console-ui-'));
const profile = mkdtempSync(join(tmpdir(), 'agentteam-chromium-'));
let ctx: BrowserContext;
let page: Page;
let foreign: Server;
let runId = '';
let scoutId = '';

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  mkdirSync(SHOTS, { recursive: true });
  await d.start();
  scoutId = (await d.addAgent('scout')).id;
  // An agent whose every turn fails: its turn and its failure notice show inline in the conversation.
  const f = await d.run(['agent', 'add', '--name', 'flaky', '--workdir', wd, '--', 'sh', '-c', 'cat >/dev/null; exit 3']);
  assert.equal(f.code, 0, f.stderr);
  // An agent whose turns take long: the Runtimes screen shows what it is working on.
  const w = await d.run(['agent', 'add', '--name', 'slow', '--workdir', wd, '--', 'sh', '-c', 'cat >/dev/null; sleep 60']);
  assert.equal(w.code, 0, w.stderr);
  const r = await d.run(['runtime', 'start', '--agent', 'scout', '--workdir', wd, '--detach', '--', process.execPath, FIXTURE, 'scout reporting from its runtime', 'channel:general']);
  assert.equal(r.code, 0, r.stderr);
  runId = r.stdout.trim();
  // A page on another origin of the same host (another port: same site, so a SameSite=Strict cookie would still go along).
  foreign = createServer((_q, res) => void res.end('<!doctype html><title>elsewhere</title><p>elsewhere</p>'));
  await new Promise<void>((r2) => foreign.listen(0, '127.0.0.1', r2));
  ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 860 },
  });
  page = ctx.pages()[0] ?? (await ctx.newPage());
});
after(async () => {
  await ctx?.close();
  foreign?.close();
  await d.dispose();
  rmSync(wd, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
});

/** Accessibility checks of the screen shown (test/fixtures/a11y-check.js): the problems found. */
const a11yProblems = () => page.evaluate(readFileSync(join(import.meta.dirname, 'fixtures', 'a11y-check.js'), 'utf8')) as Promise<string[]>;
const shot = async (name: string) => {
  assert.deepEqual(await a11yProblems(), [], `${name}: accessibility`);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};
const tab = async (name: string) => {
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 2, name: new RegExp(name) }).waitFor();
};
const messageCount = async () => cliJson(await d.run(['message', 'ls', '--target', 'channel:general', '--limit', '100'])).messages.length;

test('log in with the one-time link, see a runtime message appear live, and post as the owner', async () => {
  const link = (await d.run(['console', '--no-open'])).stdout.trim();
  await page.goto(link);
  assert.equal(new URL(page.url()).pathname, '/console/');
  await page.getByRole('heading', { name: 'Conversations' }).waitFor();
  await page.locator('.link-live').waitFor();
  // The runtime posts only now, while the page is open: the message arrives over the event stream.
  writeFileSync(join(wd, 'go'), '');
  const log = page.getByRole('log');
  await log.getByText('scout reporting from its runtime').waitFor({ timeout: 20_000 });
  await page.getByLabel(/Message to channel:general/).fill('hello scout, from the console');
  await page.getByRole('button', { name: 'Send' }).click();
  await log.getByText('hello scout, from the console').waitFor();
  const msgs = cliJson(await d.run(['message', 'ls', '--target', 'channel:general'])).messages as Array<{ content: string; author: { kind: string } }>;
  assert.equal(msgs.find((m) => m.content === 'hello scout, from the console')?.author.kind, 'human');
  // A turn: the owner mentions flaky; its turn fails, shown inline under the message, and its failure notice follows.
  await page.getByLabel(/Message to channel:general/).fill('@flaky please check the build');
  await page.getByRole('button', { name: 'Send' }).click();
  const asked = log.locator('li.msg', { hasText: '@flaky please check the build' });
  await asked.locator('.turn-failed', { hasText: 'flaky' }).waitFor({ timeout: 30_000 });
  assert.match(await asked.locator('.turn-failed').innerText(), /exit_nonzero/);
  await log.locator('li.msg.notice', { hasText: 'flaky could not answer' }).waitFor({ timeout: 20_000 });
  await shot('conversations');
  // A DM with an agent opens from the page and holds only its own messages.
  await page.getByRole('button', { name: 'Direct message scout' }).click();
  await page.getByRole('heading', { level: 3, name: /^dm:/ }).waitFor();
  await page.getByLabel(/Message to dm:/).fill('a word in private');
  await page.getByLabel(/Message to dm:/).press('Control+Enter');
  await log.getByText('a word in private').waitFor();
  assert.equal(await log.getByText('scout reporting from its runtime').count(), 0);
  const dmTarget = (await page.getByRole('heading', { level: 3, name: /^dm:/ }).innerText()).trim();
  const dmMsgs = cliJson(await d.run(['message', 'ls', '--target', dmTarget])).messages as Array<{ content: string }>;
  assert.ok(dmMsgs.some((m) => m.content === 'a word in private'));
  await page.getByRole('button', { name: '#general' }).click();
  await log.getByText('scout reporting from its runtime').waitFor();
  // A thread opens from a channel message; a reply there stays in the thread.
  await log.locator('li.msg', { hasText: 'scout reporting from its runtime' }).getByRole('button', { name: /Open the thread of scout's message/ }).click();
  await page.getByRole('heading', { level: 3, name: /^thread:general\// }).waitFor();
  await page.getByLabel(/Message to thread:/).fill('following up in the thread');
  await page.getByRole('button', { name: 'Send' }).click();
  await log.getByText('following up in the thread').waitFor();
  const threadTarget = (await page.getByRole('heading', { level: 3, name: /^thread:/ }).innerText()).trim();
  const threadMsgs = cliJson(await d.run(['message', 'ls', '--target', threadTarget])).messages as Array<{ content: string }>;
  assert.ok(threadMsgs.some((m) => m.content === 'following up in the thread'));
  await page.getByRole('button', { name: '#general' }).click();
  // The link is spent: a second visit does not log in.
  const second = await ctx.newPage();
  const r = await second.goto(link);
  assert.equal(r?.status(), 403);
  await second.close();
});

test('stop a runtime from the page and see its credential disappear', async () => {
  // Keyboard: a section link takes Enter, and focus moves to the new section's heading.
  await page.getByRole('link', { name: 'Credentials' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 2, name: /Credentials/ }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H2');
  const cred = page.locator(`table.authorizations tr[data-run="${runId}"]`);
  await cred.waitFor();
  assert.match(await cred.innerText(), /scout/);
  assert.match(await cred.innerText(), /expires in/);
  await shot('credentials');
  await tab('Runtimes');
  const row = page.locator(`table.runtimes-live tr[data-run="${runId}"]`);
  await row.waitFor();
  await shot('runtimes');
  await row.getByRole('button', { name: `Stop runtime ${runId} of scout` }).click();
  await row.waitFor({ state: 'detached', timeout: 20_000 });
  await tab('Credentials');
  await page.locator('table.authorizations').getByText('No runtime holds a credential.').waitFor();
  assert.equal(await cred.count(), 0);
  const runs = cliJson(await d.run(['runtime', 'ls', '--json'])) as Array<{ runId: string; status: string }>;
  assert.equal(runs.find((x) => x.runId === runId)?.status, 'exited');
  // A turn at work: its runtime names the turn's target and who asked; stopping it ends the turn as failed.
  assert.equal((await d.run(['message', 'post', '--target', 'channel:general', '@slow take your time'])).code, 0);
  await tab('Runtimes');
  const working = page.locator('table.runtimes-live tr', { hasText: 'slow' });
  await working.getByText(/channel:general \(from owner/).waitFor({ timeout: 20_000 });
  await shot('runtimes-turn');
  await working.getByRole('button', { name: /^Stop runtime run/ }).click();
  await working.waitFor({ state: 'detached', timeout: 20_000 });
  await tab('Conversations');
  await page.getByRole('log').locator('li.msg', { hasText: '@slow take your time' }).locator('.turn-failed', { hasText: 'slow' }).waitFor({ timeout: 20_000 });
});

test('a request from a foreign Origin and a mutation without the CSRF token are refused', async () => {
  const before = await messageCount();
  const consoleOrigin = new URL(page.url()).origin;
  // Same-origin, but without the CSRF header: refused.
  const status = await page.evaluate(async () => (await fetch('/console/api/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ target: 'channel:general', content: 'no csrf' }) })).status);
  assert.equal(status, 403);
  // From another origin on this host: a CORS-simple POST (no preflight; the browser sends it with its Origin) is refused.
  const other = await ctx.newPage();
  await other.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
  await other.evaluate(async (url) => {
    await fetch(`${url}/console/api/messages`, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ target: 'channel:general', content: 'forged' }) }).catch(() => undefined);
  }, consoleOrigin);
  // A JSON POST with a CSRF-looking header needs a preflight, which the daemon never grants: the browser refuses it.
  const preflight = await other.evaluate(async (url) => {
    try {
      await fetch(`${url}/console/api/messages`, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json', 'x-csrf-token': 'x' }, body: '{}' });
      return 'sent';
    } catch {
      return 'blocked';
    }
  }, consoleOrigin);
  assert.equal(preflight, 'blocked');
  await other.close();
  assert.equal(await messageCount(), before, 'nothing was posted');
  await tab('Credentials');
  await page.locator('table.denials').getByText('console:origin').waitFor();
  await page.locator('table.denials').getByText('console:csrf').waitFor();
});

test('boards show tasks with reviews and the approvals waiting for the person, who approves one from the page', async () => {
  // A one-time schedule a few seconds ahead (again if a slow launch made that moment pass), so a run shows beside it.
  for (let i = 0; i < 3; i++) {
    const soon = await runExecSteps(d, 'scout', [{ name: 's', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'Reminder fired', at: new Date(Date.now() + 4_000).toISOString() } }]);
    if (soon.s.code === 0) break;
    assert.match(JSON.stringify(soon.s.out), /must be in the future/);
  }
  const made = await runExecSteps(d, 'scout', [
    { name: 'task', run: ['task', 'create'], input: { title: 'Ship the release notes' } },
    { name: 'review', run: ['review', 'add'], input: { target: 'task:${task.data.task.id}', verdict: 'approve', body: 'Reads well' } },
    { name: 'request', run: ['approval', 'request'], input: { subject: 'task:${task.data.task.id}', reason: 'Publish the release notes' } },
    { name: 'schedule', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'Weekly digest', cron: '0 9 * * 1', timeZone: 'UTC' } },
    { name: 'plan', run: ['workflow', 'plan'], input: { operation: 'create', name: 'Release', steps: [{ title: 'Draft notes', instructions: 'Write the notes', assignee: scoutId }] } },
    { name: 'publish', run: ['workflow', 'plan'], input: { operation: 'publish', planId: '${plan.data.plan.id}', revision: '${plan.data.plan.revision}' } },
    { name: 'run', run: ['workflow', 'run'], input: { operation: 'start', planId: '${plan.data.plan.id}', target: 'channel:general' } },
  ]);
  for (const step of ['schedule', 'plan', 'publish', 'run']) assert.equal(made[step].code, 0, JSON.stringify(made[step]));
  const approvalId = made.request.out.data.approval.id as string;
  assert.ok(approvalId, JSON.stringify(made.request));
  await tab('Boards');
  const card = page.locator(`li[data-approval="${approvalId}"]`);
  await card.waitFor({ timeout: 15_000 });
  assert.match(await card.innerText(), /Publish the release notes/);
  const task = page.getByRole('row', { name: /Ship the release notes/ });
  await task.waitFor();
  assert.match(await task.innerText(), /scout: approve/);
  assert.match(await page.getByRole('row', { name: /Weekly digest/ }).innerText(), /0 9 \* \* 1/);
  assert.match(await page.getByRole('row', { name: /Release in channel:general/ }).innerText(), /Draft notes \(scout\)/);
  // A schedule's runs show beside it once it fires (the board refreshes every 5 s).
  await page.getByRole('row', { name: /Reminder fired/ }).getByText(/\d\d:\d\d:\d\d sent/).waitFor({ timeout: 30_000 });
  await shot('boards');
  await card.getByLabel('Note (optional)').fill('go ahead');
  await card.getByRole('button', { name: /^Approve/ }).click();
  await card.waitFor({ state: 'detached' });
  const got = await runExecSteps(d, 'scout', [{ name: 'get', run: ['approval', 'get'], input: { approvalId } }]);
  assert.equal(got.get.out.data.approval.status, 'approved');
});

test('boards continue with Load more (keyboard): a task past the first page with its reviews, and an approval decided from a later page', async () => {
  const pad = (i: number) => String(i).padStart(2, '0');
  const steps: unknown[] = [];
  for (let i = 0; i < 22; i++) {
    steps.push({ name: `t${i}`, run: ['task', 'create'], input: { title: `Later task ${pad(i)}` } });
    steps.push({ name: `a${i}`, run: ['approval', 'request'], input: { subject: `task:\${t${i}.data.task.id}`, reason: `Later approval ${pad(i)}` } });
  }
  steps.push({ name: 'r0', run: ['review', 'add'], input: { target: 'task:${t0.data.task.id}', verdict: 'approve', body: 'Second page review' } });
  steps.push({ name: 'r5', run: ['review', 'add'], input: { target: 'task:${t5.data.task.id}', verdict: 'comment', body: 'Sixteenth row review' } });
  for (let i = 0; i < 11; i++) steps.push({ name: `m${i}`, run: ['review', 'add'], input: { target: 'task:${t21.data.task.id}', verdict: 'comment', body: `Remark ${pad(i)}` } });
  const made = await runExecSteps(d, 'scout', steps);
  for (const k of ['t0', 'a0', 'r0', 'r5', 'm10']) assert.equal(made[k].code, 0, JSON.stringify(made[k]));
  const laterApproval = made.a0.out.data.approval.id as string;
  // Boards opened afresh: its first read comes after everything above was made.
  await tab('Runtimes');
  await tab('Boards');
  const row = (title: string) => page.getByRole('row', { name: new RegExp(title) });
  const busy = row('Later task 21');
  await busy.getByText('showing 10 of more').waitFor({ timeout: 15_000 });
  // Page one: 20 tasks; the 16th row's review is there (every row shown was read); the oldest tasks wait behind Load more.
  assert.match(await row('Later task 05').innerText(), /scout: comment \(open\)\s+Sixteenth row review/);
  assert.equal(await row('Later task 00').count(), 0);
  await page.getByText('Showing the first 20 tasks; more exist.').waitFor();
  // A cut nested list says so and continues: 10 of the 11 remarks, then Show more.
  await busy.getByRole('button', { name: /^Show more reviews of/ }).click();
  await busy.getByText('Remark 00').waitFor();
  assert.equal(await busy.locator('li').count(), 11);
  // Keyboard: Load more takes Enter, and focus moves to the first task it added.
  await page.getByRole('button', { name: 'Load more tasks' }).focus();
  await page.keyboard.press('Enter');
  await row('Later task 00').waitFor();
  assert.match(await row('Later task 00').innerText(), /scout: approve \(open\)\s+Second page review/);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-focus')?.split(':')[0]), 'tasks');
  await page.getByText(/All 2\d tasks shown\./).waitFor();
  // An approval on the second page, decided from there.
  const card = page.locator(`li[data-approval="${laterApproval}"]`);
  assert.equal(await card.count(), 0);
  await page.getByRole('button', { name: 'Load more approvals' }).click();
  await card.waitFor();
  await shot('boards-more');
  await card.getByLabel('Note (optional)').fill('from page two');
  await card.getByRole('button', { name: /^Reject/ }).click();
  await card.waitFor({ state: 'detached', timeout: 15_000 });
  // The refresh after the decision walked both pages again: the rest of page two stays, of approvals and tasks alike.
  await page.locator('li[data-approval]', { hasText: 'Later approval 01' }).waitFor();
  assert.equal(await row('Later task 00').count(), 1);
  assert.equal(await page.locator('li[data-approval]').count(), 21);
  const got = await runExecSteps(d, 'scout', [{ name: 'get', run: ['approval', 'get'], input: { approvalId: laterApproval } }]);
  assert.equal(got.get.out.data.approval.status, 'rejected');
  assert.equal(got.get.out.data.approval.note, 'from page two');
});

test('text planted by agents shows as text: no markup, no script, no javascript: link, bidi overrides made visible, huge strings wrapped', async () => {
  const RLO = '\u202e';
  const long = 'W'.repeat(190);
  const made = await runExecSteps(d, 'scout', [
    { name: 'task', run: ['task', 'create'], input: { title: `<img src=x onerror="window.__pwned=1">${RLO}gnp.exe ${long}`.slice(0, 200) } },
    { name: 'review', run: ['review', 'add'], input: { target: 'task:${task.data.task.id}', verdict: 'comment', body: `<script>window.__pwned=2</script>[open](javascript:window.__pwned=3) ${RLO}evorppa ${'R'.repeat(3000)}` } },
    { name: 'request', run: ['approval', 'request'], input: { subject: 'task:${task.data.task.id}', reason: `<a href="javascript:window.__pwned=4">approve me</a> ${RLO}tcejer` } },
    { name: 'plan', run: ['workflow', 'plan'], input: { operation: 'create', name: `<b>Planted</b>${RLO}`, steps: [{ title: `<i>step</i>${RLO}enod`, instructions: 'x', assignee: scoutId }] } },
    { name: 'publish', run: ['workflow', 'plan'], input: { operation: 'publish', planId: '${plan.data.plan.id}', revision: '${plan.data.plan.revision}' } },
    { name: 'run', run: ['workflow', 'run'], input: { operation: 'start', planId: '${plan.data.plan.id}', target: 'channel:general' } },
  ]);
  const posted = await d.run(['message', 'post', '--target', 'channel:general', `<img src=x onerror="window.__pwned=5"> [link](javascript:window.__pwned=6) ${RLO}dlrow olleh ${'M'.repeat(7000)}`]);
  assert.equal(posted.code, 0, posted.stderr);
  // An agent's name is a slug: one with markup or an override never exists to be shown.
  for (const name of ['<img src=x onerror=window.__pwned=7>', `mallory${RLO}`]) {
    const evil = await d.run(['agent', 'add', '--name', name, '--workdir', wd, '--', 'sh', '-c', 'cat >/dev/null']);
    assert.equal(evil.code, 1);
    assert.match(evil.stderr, /validation_failed: \/name/);
  }
  for (const k of ['task', 'review', 'request', 'plan', 'publish', 'run']) assert.equal(made[k].code, 0, `${k}: ${JSON.stringify(made[k])}`);
  const safe = async (where: string) => {
    const found = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
      planted: document.querySelectorAll('main img, main script, main b, main i, main a').length,
      rlo: document.body.innerText.includes('\u202e'),
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    }));
    assert.deepEqual(found, { pwned: null, planted: 0, rlo: false, overflow: 0 }, where);
  };
  await tab('Runtimes');
  await tab('Boards');
  const task = page.getByRole('row', { name: /<img src=x/ });
  await task.waitFor({ timeout: 15_000 });
  await task.getByText(/\[open\]\(javascript:/).waitFor({ timeout: 15_000 });
  await page.getByRole('row', { name: /<b>Planted<\/b>/ }).getByText(/<i>step<\/i>/).waitFor({ timeout: 15_000 });
  await page.locator('li[data-approval]', { hasText: '<a href="javascript:' }).waitFor();
  // The override is shown as its escape, so "gnp.exe" reads as written, not reversed into "exe.png".
  assert.match(await task.innerText(), /\\u202egnp\.exe W+/);
  await safe('boards');
  await shot('boards-planted');
  await tab('Conversations');
  const msg = page.getByRole('log').locator('li.msg', { hasText: 'dlrow olleh' });
  await msg.waitFor({ timeout: 15_000 });
  assert.match(await msg.innerText(), /<img src=x onerror="window.__pwned=5"> \[link\]\(javascript:window.__pwned=6\) \\u202edlrow olleh M+/);
  await safe('conversations');
});

test('the traffic screen charts every route family (screenshot kept)', async () => {
  await tab('Traffic');
  await page.locator('figure.chart').first().waitFor();
  assert.equal(await page.locator('figure.chart').count(), 5);
  // The runtime's MCP calls and this page's own requests were counted in their families.
  for (const family of ['mcp', 'exec', 'owner', 'console']) {
    const caption = await page.locator('figure.chart figcaption', { hasText: `${family}:` }).innerText();
    assert.match(caption, /: [1-9]\d* requests in 5 min/, caption);
  }
  await shot('traffic');
  // The checker itself finds what it looks for: a pale text and an unnamed button on this page are reported.
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.id = 'pale';
    p.textContent = 'pale text';
    p.style.color = '#bbbbbb';
    const b = document.createElement('button');
    b.id = 'unnamed';
    document.body.append(p, b);
  });
  const found = await a11yProblems();
  assert.ok(found.some((x) => x.includes('pale text')) && found.includes('unnamed BUTTON'), found.join('; '));
  await page.evaluate(() => ['pale', 'unnamed'].forEach((id) => document.getElementById(id)?.remove()));
});

test('agentteam console opens the browser on its private page, which logs in (the link never on a command line)', async () => {
  const opened = join(wd, 'opened.json');
  const script = join(wd, 'browser.mjs');
  writeFileSync(script, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(opened)}, JSON.stringify(process.argv.slice(2)));`);
  const r = await d.run(['console'], { env: { BROWSER: `${process.execPath} ${script}` } });
  assert.equal(r.code, 0, r.stderr);
  for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((res) => setTimeout(res, 50));
  const [fileUrl] = JSON.parse(readFileSync(opened, 'utf8')) as string[];
  assert.match(fileUrl!, /^file:\/\//);
  // What the browser does with it: the page sends it on to the link, which logs in; the console works from there.
  const fresh = await ctx.newPage();
  try {
    await fresh.goto(fileUrl!);
    await fresh.waitForURL(/\/console\/$/);
    await fresh.getByRole('heading', { name: 'Conversations' }).waitFor();
    await fresh.locator('.link-live').waitFor();
    const state = await fresh.evaluate(async () => (await fetch('/console/api/state')).status);
    assert.equal(state, 200);
  } finally {
    await fresh.close();
  }
});
