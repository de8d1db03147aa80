// Owns `agentteam server start`: the AgentTeam Server standalone on SQLite or PostgreSQL, in the foreground until SIGTERM/SIGINT.
import { closeSync, constants, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { ensurePrivateDir, homePaths, resolveHome } from '../home/home.js';
import { prepareDatabaseFile, readPrivateText, UnsafeHomeError } from '../home/home-check.js';
import { startServer } from '../server/main.js';
import { parseDbUrl } from '../server/store/open.js';
import { newToken } from '../shared/ids.js';
import { createLogger } from '../shared/log.js';
import { CliError } from './cli-error.js';
import { DOMAINS } from '../domains/registry.js';

/**
 * `--db sqlite:PATH` keeps the admin token beside the file (PATH.admin-token); `--db postgres://…` has no file, so the
 * token lives in the home folder (server-admin.token) unless --admin-token-file names one.
 */
export interface ServerStartOptions {
  /** The database in argv; a PostgreSQL password here is visible to every local user (ps), so it is warned about. */
  db?: string;
  /** A file (ours, 0600, no link) holding the database URL: keeps the password out of argv. */
  dbFile?: string;
  port: string;
  host?: string;
  allowedHost?: string[];
  tlsCert?: string;
  tlsKey?: string;
  tlsProxy?: boolean;
  logFile?: string;
  adminTokenFile?: string;
  home?: string;
}

/**
 * Logs are pino JSON lines on stdout (the first is `server listening` with url and serverId), or in --log-file, in which
 * case stdout gets only one {url, serverId} line.
 */
/**
 * The database URL from --db, --db-file or AGENTTEAM_DB (in that order; --db with --db-file is refused). Security
 * invariant: a password never has to be in argv; when it is, a warning says so without printing it.
 */
export function databaseUrl(o: Pick<ServerStartOptions, 'db' | 'dbFile'>, env: NodeJS.ProcessEnv, warn: (line: string) => void): { db: string; source: string } {
  if (o.db !== undefined && o.dbFile !== undefined) throw new CliError('give --db or --db-file, not both', 2);
  if (o.db !== undefined) {
    if (hasPassword(o.db)) warn('warning: --db carries a database password, which every local user can read in the process list; use --db-file FILE (mode 0600) or the AGENTTEAM_DB environment variable');
    return { db: o.db, source: '--db' };
  }
  if (o.dbFile !== undefined) {
    let text: string | undefined;
    try {
      text = readPrivateText(resolve(o.dbFile));
    } catch (e) {
      if (e instanceof UnsafeHomeError) throw new CliError(`--db-file: ${e.message}`, 1);
      throw new CliError(`--db-file: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`, 2);
    }
    if (text === undefined) throw new CliError('--db-file: no such file', 2);
    const line = text.trim();
    if (line === '' || line.includes('\n')) throw new CliError('--db-file must hold one line: sqlite:PATH or postgres://USER:PASSWORD@HOST:PORT/DB', 2);
    return { db: line, source: '--db-file' };
  }
  const fromEnv = env.AGENTTEAM_DB?.trim();
  if (fromEnv) return { db: fromEnv, source: 'AGENTTEAM_DB' };
  throw new CliError('give the database: AGENTTEAM_DB=postgres://… in the environment, --db-file FILE, or --db sqlite:PATH', 2);
}

/**
 * Reads the admin token file, or creates it (0600) when missing, never replacing one another process created meanwhile:
 * server processes started together share one file, so each ends up holding the token the file holds.
 */
export function loadOrCreateSharedSecret(path: string, make: () => string): string {
  const cur = readPrivateText(path)?.trim();
  if (cur) return cur;
  const v = make();
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, v + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path); // fails with EEXIST when another process won: its token is the one
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(tmp);
  }
  const won = readPrivateText(path)?.trim();
  if (!won) throw new CliError(`the admin token file ${path} is empty; remove it and start again`, 1);
  return won;
}

function hasPassword(db: string): boolean {
  try {
    const u = new URL(db);
    return u.password !== '' || u.searchParams.has('password');
  } catch {
    return false;
  }
}

export async function serverStart(o: ServerStartOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { db, source } = databaseUrl(o, env, (l) => void process.stderr.write(`agentteam: ${l}\n`));
  let loc;
  try {
    loc = parseDbUrl(db);
  } catch (e) {
    // Security invariant: the message never echoes --db, which may carry a password.
    throw new CliError(`${source}: ${(e as Error).message}`, 2);
  }
  const port = Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be 0..65535', 2);
  let tokenFile: string;
  if (o.adminTokenFile) tokenFile = resolve(o.adminTokenFile);
  else if (loc.kind === 'sqlite') tokenFile = `${loc.path}.admin-token`;
  else {
    const home = resolveHome(o.home);
    ensurePrivateDir(home);
    tokenFile = homePaths(home).serverAdminToken;
  }
  if ((o.tlsCert === undefined) !== (o.tlsKey === undefined)) throw new CliError('--tls-cert and --tls-key go together', 2);
  let tls: { cert: Buffer; key: Buffer } | undefined;
  try {
    if (o.tlsCert && o.tlsKey) tls = { cert: readFileSync(resolve(o.tlsCert)), key: readFileSync(resolve(o.tlsKey)) };
  } catch (e) {
    throw new CliError(`cannot read the TLS certificate or key (${(e as NodeJS.ErrnoException).code ?? 'error'})`, 2);
  }
  // The database file gets the home's rules before the token beside it, or the file, is opened.
  if (loc.kind === 'sqlite') {
    try {
      prepareDatabaseFile(loc.path);
    } catch (e) {
      if (e instanceof UnsafeHomeError) throw new CliError(e.message, 1);
      throw e;
    }
  }
  const adminToken = loadOrCreateSharedSecret(tokenFile, () => newToken('ata'));
  const logger = o.logFile ? createLogger({ name: 'server', file: resolve(o.logFile) }) : createLogger({ name: 'server', stdout: true });
  let s;
  try {
    s = await startServer({ domains: DOMAINS, 
      db: loc.kind === 'sqlite' ? `sqlite:${loc.path}` : loc.url,
      adminToken,
      port,
      logger,
      ...(o.host ? { host: o.host } : {}),
      ...(o.allowedHost?.length ? { allowedHosts: o.allowedHost.flatMap((h) => h.split(',')) } : {}),
      ...(tls ? { tls } : {}),
      ...(o.tlsProxy ? { tlsProxy: true } : {}),
    });
  } catch (e) {
    if (loc.kind === 'sqlite') throw e;
    const msg = e instanceof Error ? e.message : String(e);
    // Security invariant: connection failures are reported without the URL (it may carry a password).
    throw new CliError(`server failed to start: ${msg.split(loc.url).join('<db url>')}`, 1);
  }
  if (o.logFile) process.stdout.write(JSON.stringify({ url: s.url, serverId: s.serverId }) + '\n');
  logger.info('server ready; stops on SIGTERM or SIGINT');
  await new Promise<void>((r) => {
    process.once('SIGTERM', r);
    process.once('SIGINT', r);
  });
  logger.info('server stopping');
  await s.close();
  logger.info('server stopped');
  return 0;
}
