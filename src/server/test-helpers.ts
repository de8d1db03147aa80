// Owns test scaffolding for server tests: a real server on port 0 over a temp SQLite file, a bootstrapped owner, and cleanup.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock, type Clock } from '../shared/clock.js';
import type { ServerApi } from '../server-client/api.js';
import { ServerClient } from '../server-client/client.js';
import { startServer, type RunningServer } from './main.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestServer {
  dir: string;
  dbPath: string;
  server: RunningServer;
  client: ServerClient;
  owner: ServerApi;
  ownerCredential: string;
  ownerId: string;
  stop(): Promise<void>;
}

/** A clock whose time advances 1 ms per read, so every write gets a distinct, increasing timestamp. */
export function tickingClock(start = Date.UTC(2026, 0, 1)): Clock {
  let t = start;
  return { now: () => (t += 1), setTimer: systemClock.setTimer };
}

export async function startTestServer(opts: { clock?: Clock } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-server-'));
  const dbPath = join(dir, 'server.db');
  const server = await startServer({ dbPath, adminToken: TEST_ADMIN_TOKEN, ...(opts.clock ? { clock: opts.clock } : {}) });
  const client = new ServerClient({ baseUrl: server.url });
  const boot = await client.bootstrap(TEST_ADMIN_TOKEN, { ownerName: 'Owner' });
  const ownerCredential = boot.ownerCredential!;
  return {
    dir,
    dbPath,
    server,
    client,
    owner: client.as(ownerCredential),
    ownerCredential,
    ownerId: boot.owner.id,
    async stop() {
      client.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
