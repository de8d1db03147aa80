// Runs the server's own behaviour suites unchanged against PostgreSQL (AGENTTEAM_TEST_DB) and checks the helper really targets it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { startTestServer } from '../../src/domains/test-server.js';
import { startCluster, type Cluster } from './cluster.js';
import { readdirSync } from 'node:fs';

/** The suites written against startTestServer: bootstrap, membership, messages/attachments, tasks, reviews, paging, cursors, idempotency. */
/** Every domain's own server suite (src/domains/<name>/<name>.test.ts) runs here too, without listing it. */
const DOMAIN_SUITES = readdirSync('src/domains', { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? readdirSync(`src/domains/${d.name}`).filter((f) => f === `${d.name}.test.ts`).map((f) => `src/domains/${d.name}/${f}`) : []));

export const SERVER_SUITES = [...DOMAIN_SUITES, 'src/server/server.test.ts', 'src/server/http/handler.test.ts', 'src/server/pagination-walk.test.ts', 'src/server-client/client.test.ts', 'src/domains/actions.test.ts', 'src/server/keyset.test.ts', 'src/server/idempotency.test.ts', 'src/server/main.test.ts', 'src/domains/message/attachments.test.ts', 'src/domains/bounds-walk.test.ts', 'src/domains/scheduled-message/scheduler.test.ts', 'src/domains/scheduled-message/migration.test.ts', 'src/domains/member/invites.test.ts', 'src/server/legacy-ids.test.ts', 'src/server/id-counters.test.ts', 'src/domains/turn/service.test.ts'];

let cluster: Cluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => cluster?.stop());

async function databases(): Promise<string[]> {
  const c = new pg.Client({ connectionString: cluster.url });
  await c.connect();
  try {
    return (await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'agentteam_t_%'")).rows.map((r) => r.datname);
  } finally {
    await c.end();
  }
}

test('with AGENTTEAM_TEST_DB the test server runs on a fresh PostgreSQL database that is dropped at stop', async () => {
  const prev = process.env.AGENTTEAM_TEST_DB;
  process.env.AGENTTEAM_TEST_DB = cluster.url;
  try {
    const t = await startTestServer();
    const name = new URL(t.db).pathname.slice(1);
    assert.match(t.db, /^postgres:\/\//);
    assert.ok((await databases()).includes(name));
    const task = await t.owner.tasks.create({ title: 'stored in postgres' });
    const c = new pg.Client({ connectionString: t.db });
    await c.connect();
    const rows = (await c.query('SELECT title FROM tasks WHERE id = $1', [task.id])).rows;
    await c.end();
    assert.deepEqual(rows, [{ title: 'stored in postgres' }]);
    assert.equal(await t.runSql('UPDATE tasks SET title = ? WHERE id = ?', ['changed', task.id]), 1);
    assert.equal((await t.owner.tasks.get({ taskId: task.id })).title, 'changed');
    await t.stop();
    assert.ok(!(await databases()).includes(name), 'dropped');
  } finally {
    if (prev === undefined) delete process.env.AGENTTEAM_TEST_DB;
    else process.env.AGENTTEAM_TEST_DB = prev;
  }
});

// Suites run three at a time, each in its own process on its own databases in the one cluster.
describe('server suites on PostgreSQL', { concurrency: 3 }, () => {
  for (const suite of SERVER_SUITES) {
    test(`${suite} passes unchanged on PostgreSQL`, async (t) => {
      // The child is its own test run, not a subtest of this one (NODE_TEST_CONTEXT would make it report to us in binary).
      const { NODE_TEST_CONTEXT: _ctx, ...env } = process.env;
      const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', suite], {
        env: { ...env, AGENTTEAM_TEST_DB: cluster.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
      const killer = setTimeout(() => child.kill('SIGKILL'), 240_000);
      const code = await new Promise<number | null>((r) => child.once('exit', r));
      clearTimeout(killer);
      const pass = Number(/^# pass (\d+)$/m.exec(out)?.[1] ?? 0);
      const fail = Number(/^# fail (\d+)$/m.exec(out)?.[1] ?? -1);
      assert.equal(code, 0, out.split('\n').filter((l) => /^not ok|Error|expected|actual/.test(l.trim())).slice(0, 30).join('\n'));
      assert.equal(fail, 0);
      assert.ok(pass > 0, 'the suite ran tests');
      assert.ok(!/^# (skipped|todo) [1-9]/m.test(out));
      t.diagnostic(`${suite} on PostgreSQL: ${pass} passed`);
    });
  }
});
