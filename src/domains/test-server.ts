// Owns test scaffolding for server tests: a real server on port 0 over a temp SQLite file (or, with AGENTTEAM_TEST_DB=postgres://…, a fresh PostgreSQL database), a bootstrapped owner, and cleanup.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { systemClock, type Clock } from '../shared/clock.js';
import type { ServerApi } from '../server-client/api.js';
import { ServerClient } from '../server-client/client.js';
import { startServer, type RunningServer } from '../server/main.js';
import { openStore } from '../server/store/open.js';
import type { SqlValue } from '../server/store/types.js';
import { DOMAINS, SCHEMA, serverClient } from './registry.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestServer {
  dir: string;
  /** The SQLite file (SQLite engine only; empty on PostgreSQL). */
  dbPath: string;
  /** The database the server runs on: `sqlite:PATH` or `postgres://…/<fresh db>`. */
  db: string;
  server: RunningServer;
  client: ServerClient;
  owner: ServerApi;
  ownerCredential: string;
  ownerId: string;
  /** Runs one statement (`?` placeholders) directly on the server's database, as another server process would. */
  runSql(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Runs one query directly on the server's database (a full scan, bypassing the API). */
  querySql<R>(sql: string, params?: readonly SqlValue[]): Promise<R[]>;
  stop(): Promise<void>;
}

/** A clock whose time advances 1 ms per read, so every write gets a distinct, increasing timestamp. */
export function tickingClock(start = Date.UTC(2026, 0, 1)): Clock {
  let t = start;
  return { now: () => (t += 1), setTimer: systemClock.setTimer };
}

/** The engine server tests run on: AGENTTEAM_TEST_DB=postgres://… (an admin URL) selects PostgreSQL, else SQLite. */
export function testDbAdminUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const v = env.AGENTTEAM_TEST_DB;
  return v && /^postgres(ql)?:\/\//.test(v) ? v : undefined;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** A fresh database for one test server: a temp SQLite file, or a new PostgreSQL database dropped at cleanup. */
export async function freshTestDb(dir: string): Promise<{ db: string; dbPath: string; drop(): Promise<void> }> {
  const admin = testDbAdminUrl();
  if (!admin) {
    const dbPath = join(dir, 'server.db');
    return { db: `sqlite:${dbPath}`, dbPath, drop: async () => undefined };
  }
  const name = `agentteam_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(admin, `CREATE DATABASE "${name}"`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return { db: u.toString(), dbPath: '', drop: () => adminQuery(admin, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

export async function startTestServer(opts: { clock?: Clock; maxInFlight?: number } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-server-'));
  const fresh = await freshTestDb(dir);
  const server = await startServer({ domains: DOMAINS,  db: fresh.db, adminToken: TEST_ADMIN_TOKEN, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.maxInFlight ? { maxInFlight: opts.maxInFlight } : {}) });
  const client = serverClient({ baseUrl: server.url });
  const boot = await client.bootstrap(TEST_ADMIN_TOKEN, { ownerName: 'Owner' });
  const ownerCredential = boot.ownerCredential!;
  return {
    dir,
    dbPath: fresh.dbPath,
    db: fresh.db,
    server,
    client,
    owner: client.as(ownerCredential),
    ownerCredential,
    ownerId: boot.owner.id,
    async runSql(sql, params = []) {
      const store = await openStore(fresh.db, { schema: SCHEMA });
      try {
        return await store.run(sql, params);
      } finally {
        await store.close();
      }
    },
    async querySql<R>(sql: string, params: readonly SqlValue[] = []) {
      const store = await openStore(fresh.db, { schema: SCHEMA });
      try {
        return await store.all<R>(sql, params);
      } finally {
        await store.close();
      }
    },
    async stop() {
      client.close();
      await server.close();
      await fresh.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Uploads `data` as one attachment (streamed in 64 KiB pieces) and returns its id, for sendMessage's attachmentIds. */
export async function uploadBytes(api: ServerApi, name: string, contentType: string, data: Buffer): Promise<string> {
  async function* pieces() {
    for (let i = 0; i < data.length; i += 65536) yield data.subarray(i, i + 65536);
  }
  return (await api.messages.upload({ name, contentType, size: data.length, body: pieces() })).id;
}

/** An attachment's bytes, read through the streamed download. */
export function readBytes(api: ServerApi, attachmentId: string): Promise<Buffer> {
  return api.messages.read(attachmentId, async (_meta, body) => {
    const parts: Buffer[] = [];
    for await (const c of body) parts.push(c);
    return Buffer.concat(parts);
  });
}
