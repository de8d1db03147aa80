// Owns the throwaway PostgreSQL 15 cluster for the PostgreSQL suite: initdb in a temp dir, pg_ctl on a free loopback port, bounded stop + removal.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const PG_BIN = process.env.AGENTTEAM_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface Cluster {
  /** Admin URL (superuser `postgres`, database `postgres`, trust auth on loopback only). */
  url: string;
  port: number;
  /** A fresh, empty database; returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /** pg_ctl restart -m fast: every connection is dropped and refused until the cluster is back. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function asPostgres(cmd: string, args: string[], timeoutMs: number): string {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, cmd), ...args]] : [join(PG_BIN, cmd), args];
  return execFileSync(file, argv, { timeout: timeoutMs, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
}

export function postgresAvailable(): boolean {
  return existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));
}

/** Builds the URL of another database on the same cluster. */
export function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Creates a uniquely named empty database through the admin URL; returns its URL. */
export async function createDatabase(adminUrl: string, prefix = 'agentteam_t'): Promise<string> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
  return databaseUrl(adminUrl, name);
}

/** Drops a database made by createDatabase, disconnecting whatever still uses it. */
export async function dropDatabase(adminUrl: string, dbUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(dbUrl).pathname.slice(1));
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await c.end();
  }
}

/**
 * Starts a private cluster: initdb (C locale, UTF8, trust auth) into a temp dir owned by the postgres OS user when
 * running as root, then pg_ctl start on 127.0.0.1:<free port> with its socket in the same dir. Every step is bounded.
 */
export async function startCluster(): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  let started = false;
  const stopSync = () => {
    process.off('exit', stopSync);
    if (started) {
      try {
        asPostgres('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '20'], 30_000);
      } catch {
        // Already gone; the directory is removed regardless.
      }
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const stop = async () => stopSync();
  // A test process that ends without reaching stop() (a failed before(), an uncaught error) still stops its cluster.
  process.on('exit', stopSync);
  try {
    asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--locale=C', '-E', 'UTF8', '--no-sync'], 60_000);
    const port = await freePort();
    const opts = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    asPostgres('pg_ctl', ['start', '-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', '-o', opts], 40_000);
    started = true;
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const restart = async () => void asPostgres('pg_ctl', ['restart', '-D', data, '-l', join(dir, 'log'), '-m', 'fast', '-w', '-t', '30', '-o', opts], 40_000);
    return { url, port, createDatabase: (p) => createDatabase(url, p), restart, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
