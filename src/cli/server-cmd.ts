// Owns `agentteam server start`: the AgentTeam Server standalone on SQLite, in the foreground until SIGTERM/SIGINT.
import { resolve } from 'node:path';
import { loadOrCreateSecret } from '../daemon/home.js';
import { startServer } from '../server/main.js';
import { newToken } from '../shared/ids.js';
import { createLogger } from '../shared/log.js';
import { CliError } from './daemon-client.js';

export async function serverStart(o: { db: string; port: string; adminTokenFile?: string }): Promise<number> {
  const m = /^sqlite:(.+)$/.exec(o.db);
  if (!m) throw new CliError('--db must be sqlite:PATH (PostgreSQL is not supported yet)', 2);
  const port = Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be 0..65535', 2);
  const dbPath = resolve(m[1]!);
  const tokenFile = resolve(o.adminTokenFile ?? `${dbPath}.admin-token`);
  const adminToken = loadOrCreateSecret(tokenFile, () => newToken('ata'));
  const s = await startServer({ dbPath, adminToken, port, logger: createLogger({ name: 'server' }) });
  process.stdout.write(JSON.stringify({ url: s.url, serverId: s.serverId }) + '\n');
  await new Promise<void>((r) => {
    process.once('SIGTERM', r);
    process.once('SIGINT', r);
  });
  await s.close();
  return 0;
}
