// Owns reading an App installation's row (credentials included: server-side only, never returned or logged).
import type { Sql } from '../../server/store/types.js';
import type { ExtensionName } from './names.js';

export interface InstallationRow {
  name: ExtensionName;
  base_url: string;
  token: string;
  poll_interval_ms: number;
  status: 'active' | 'suspended';
  webhook_secret: string | null;
  app_id: number | null;
  installation_id: number | null;
  private_key: string | null;
  minted_token: string | null;
  minted_until: number | null;
  installed_at: number;
}
export const INST_COLS = 'name, base_url, token, poll_interval_ms, status, webhook_secret, app_id, installation_id, private_key, minted_token, minted_until, installed_at';
export async function installation(sql: Pick<Sql, 'get'>, name: string): Promise<InstallationRow | undefined> {
  return sql.get<InstallationRow>(`SELECT ${INST_COLS} FROM extension_installations WHERE name = ?`, [name]);
}

