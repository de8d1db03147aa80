// Owns `agentteam server start`: the AgentTeam Server standalone on SQLite or PostgreSQL, in the foreground until SIGTERM/SIGINT.
import { resolve } from 'node:path';
import { ensurePrivateDir, homePaths, loadOrCreateSecret, resolveHome } from '../daemon/home.js';
import { startServer } from '../server/main.js';
import { parseDbUrl } from '../server/store/open.js';
import { newToken } from '../shared/ids.js';
import { createLogger } from '../shared/log.js';
import { CliError } from './daemon-client.js';

/**
 * `--db sqlite:PATH` keeps the admin token beside the file (PATH.admin-token); `--db postgres://…` has no file, so the
 * token lives in the home folder (server-admin.token) unless --admin-token-file names one.
 */
export async function serverStart(o: { db: string; port: string; adminTokenFile?: string; home?: string }): Promise<number> {
  let loc;
  try {
    loc = parseDbUrl(o.db);
  } catch (e) {
    // Security invariant: the message never echoes --db, which may carry a password.
    throw new CliError(`--db: ${(e as Error).message}`, 2);
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
  const adminToken = loadOrCreateSecret(tokenFile, () => newToken('ata'));
  const logger = createLogger({ name: 'server' });
  let s;
  try {
    s = await startServer({ db: loc.kind === 'sqlite' ? `sqlite:${loc.path}` : loc.url, adminToken, port, logger });
  } catch (e) {
    if (loc.kind === 'sqlite') throw e;
    const msg = e instanceof Error ? e.message : String(e);
    // Security invariant: connection failures are reported without the URL (it may carry a password).
    throw new CliError(`server failed to start: ${msg.split(loc.url).join('<db url>')}`, 1);
  }
  process.stdout.write(JSON.stringify({ url: s.url, serverId: s.serverId }) + '\n');
  await new Promise<void>((r) => {
    process.once('SIGTERM', r);
    process.once('SIGINT', r);
  });
  await s.close();
  return 0;
}
