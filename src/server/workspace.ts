// Owns the single workspace's persistent identity: serverId, workspaceId and the server secrets kept in `meta`.
import { randomBytes } from 'node:crypto';
import { newId } from '../shared/ids.js';
import type { Sql, Store } from './store/types.js';

export interface WorkspaceMeta {
  serverId: string;
  /** Null until bootstrap creates the workspace. */
  workspaceId: string | null;
  /** HMAC key for cursors. */
  cursorSecret: Buffer;
  /** HMAC key for member credentials; the store keeps only keyed hashes. */
  credentialKey: Buffer;
}

async function getOrSet(sql: Sql, key: string, make: () => string): Promise<string> {
  const row = await sql.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [key]);
  if (row) return row.value;
  const value = make();
  await sql.run('INSERT INTO meta (key, value) VALUES (?, ?)', [key, value]);
  return value;
}

/** Generates the serverId and secrets once and persists them; later opens read the same values. */
export async function loadWorkspaceMeta(store: Store): Promise<WorkspaceMeta> {
  return store.tx(async (sql) => {
    const serverId = await getOrSet(sql, 'server_id', () => newId('srv'));
    const cursorSecret = Buffer.from(await getOrSet(sql, 'cursor_secret', () => randomBytes(32).toString('base64url')), 'base64url');
    const credentialKey = Buffer.from(await getOrSet(sql, 'credential_key', () => randomBytes(32).toString('base64url')), 'base64url');
    const ws = await sql.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', ['workspace_id']);
    return { serverId, workspaceId: ws?.value ?? null, cursorSecret, credentialKey };
  });
}
