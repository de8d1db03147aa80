// Owns `agentteam init --server-url URL --invite CODE`: join a remote workspace as a new Human member, remember the server, start the daemon.
import { resolve } from 'node:path';
import { ensureHome, readTextIfExists, writePrivateFile } from '../daemon/home.js';
import { clientFor, parseServerUrls, rememberServer, versionSkew } from '../daemon/server-link.js';
import { SERVER_VERSION } from '../shared/version.js';
import { ServerCallError } from '../server-client/client.js';
import { CliError } from './daemon-client.js';

export interface JoinOptions {
  serverUrl: string[];
  invite: string;
  serverCa?: string;
}

/** Redeems the invite on the server, stores this person's own credential (owner.json, 0600) and the server (server.json). */
export async function joinWorkspace(home: string, o: JoinOptions): Promise<{ serverId: string; memberId: string; name: string; role: string }> {
  let urls: string[];
  try {
    urls = parseServerUrls(o.serverUrl);
  } catch (e) {
    throw new CliError(`--server-url: ${(e as Error).message}`, 2);
  }
  const paths = ensureHome(home);
  // Security invariant: a home holds one person's credential; joining never overwrites an existing one.
  if (readTextIfExists(paths.ownerProfile)) throw new CliError('this home already has a member credential (owner.json); use another --home to join as someone else', 1);
  const caFile = o.serverCa ? resolve(o.serverCa) : undefined;
  const client = clientFor({ urls, ...(caFile ? { caFile } : {}) });
  try {
    const info = await client.info();
    // Checked before the invite is redeemed, so a version mismatch leaves the one-time code unused.
    const skew = versionSkew(info.version, SERVER_VERSION);
    if (skew) throw new CliError(`could not join: ${skew}`, 1);
    const joined = await client.join(o.invite.trim());
    if (joined.serverId !== info.serverId) throw new CliError('the server changed identity while joining', 1);
    writePrivateFile(paths.ownerProfile, JSON.stringify({ serverId: joined.serverId, memberId: joined.member.id, credential: joined.credential }, null, 2) + '\n');
    rememberServer(paths.serverConfig, { urls, serverId: joined.serverId, ...(caFile ? { caFile } : {}) });
    return { serverId: joined.serverId, memberId: joined.member.id, name: joined.member.name, role: joined.member.role };
  } catch (e) {
    if (e instanceof ServerCallError) throw new CliError(`could not join: ${e.code}: ${e.message}`, e.code === 'denied' ? 4 : 1);
    throw e;
  } finally {
    client.close();
  }
}
