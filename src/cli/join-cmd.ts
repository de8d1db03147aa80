// Owns `agentteam init --server-url URL…`: become the remote server's owner (with its admin token) or join it as a new Human member (--invite CODE); remember the server.
import { resolve } from 'node:path';
import { ensureHome, readTextIfExists, writePrivateFile } from '../home/home.js';
import { clientFor, parseServerUrls, readRememberedServer, rememberServer, versionSkew } from '../daemon/server-link.js';
import { SERVER_VERSION } from '../shared/version.js';
import { ServerCallError, type ServerClient } from '../server-client/client.js';
import type { ServerInfo } from '../server-client/api.js';
import { CliError } from './cli-error.js';

export interface JoinOptions {
  serverUrl: string[];
  invite: string;
  serverCa?: string;
}

export interface OwnerInitOptions {
  serverUrl: string[];
  serverCa?: string;
  /** The owner's display name (default: the server's default owner name). */
  name?: string;
  /** The server's admin token (AGENTTEAM_SERVER_ADMIN_TOKEN); unlocks only the first bootstrap. */
  adminToken?: string;
}

function urlsOf(values: string[]): string[] {
  try {
    return parseServerUrls(values);
  } catch (e) {
    throw new CliError(`--server-url: ${(e as Error).message}`, 2);
  }
}

/** The flags that repeat this server on the command line, for the next command a refusal names. */
const flagsFor = (urls: string[], caFile?: string) => `--server-url ${urls.join(',')}${caFile ? ` --server-ca ${caFile}` : ''}`;

/** GET /v1/server with its failures said as the next step: a trust failure as such, never as "unreachable". */
async function whoIs(client: ServerClient, urls: string[], caFile: string | undefined, verb: string): Promise<ServerInfo> {
  let info: ServerInfo;
  try {
    info = await client.info();
  } catch (e) {
    if (e instanceof ServerCallError && e.untrusted) throw new CliError(`could not ${verb}: ${e.message}`, 1);
    if (e instanceof ServerCallError && e.kind !== 'client') throw new CliError(`could not ${verb}: ${e.message}; check that the server processes run, then rerun: agentteam init ${flagsFor(urls, caFile)} …`, 1);
    throw e;
  }
  // Checked before anything is stored or redeemed, so a version mismatch leaves a one-time code unused.
  const skew = versionSkew(info.version, SERVER_VERSION);
  if (skew) throw new CliError(`could not ${verb}: ${skew}`, 1);
  return info;
}

/**
 * The first person with the server's admin token becomes its owner: the server id is read from GET /v1/server and
 * pinned in server.json, the owner's credential stored in owner.json (0600). A home already set up for this server is
 * left as is (init is idempotent). Every refusal names the next command to run.
 */
export async function initOwner(home: string, o: OwnerInitOptions): Promise<{ serverId: string; memberId?: string; name?: string; role?: string; created: boolean }> {
  const urls = urlsOf(o.serverUrl);
  const paths = ensureHome(home);
  const caFile = o.serverCa ? resolve(o.serverCa) : undefined;
  const remembered = readRememberedServer(paths.serverConfig);
  const hasCredential = readTextIfExists(paths.ownerProfile) !== undefined;
  if (hasCredential && !remembered) throw new CliError('this home holds an embedded workspace; use a new home for the team: agentteam --home DIR init ' + flagsFor(urls, caFile), 1);
  const client = clientFor({ urls, ...(caFile ? { caFile } : {}) });
  try {
    const info = await whoIs(client, urls, caFile, 'set up the owner');
    // Security invariant: a home stays with the server it joined; pointing it at another server is refused, not adopted.
    if (remembered && remembered.serverId !== info.serverId) throw new CliError(`this home belongs to server ${remembered.serverId}, not ${info.serverId}; use another home: agentteam --home DIR init ${flagsFor(urls, caFile)}`, 1);
    if (remembered && hasCredential) {
      rememberServer(paths.serverConfig, { urls, serverId: info.serverId, ...((caFile ?? remembered.caFile) ? { caFile: caFile ?? remembered.caFile! } : {}) });
      return { serverId: info.serverId, created: false };
    }
    if (remembered) throw new CliError(`this home joined server ${info.serverId} but its credential (owner.json) is gone; ask an admin for a new invite and run: agentteam --home NEWDIR init ${flagsFor(urls, caFile)} --invite CODE`, 1);
    const askInvite = `ask its owner or an admin for an invite (agentteam member invite --name YOU), then run: agentteam init ${flagsFor(urls, caFile)} --invite CODE`;
    if (info.workspaceId !== null) throw new CliError(`this server already has an owner; ${askInvite}`, 1);
    if (!o.adminToken) throw new CliError(`this home has no member credential: to join, ${askInvite}; to become the owner, run it with the server's admin token: AGENTTEAM_SERVER_ADMIN_TOKEN=$(cat ADMIN_TOKEN_FILE) agentteam init ${flagsFor(urls, caFile)}`, 2);
    let boot;
    try {
      boot = await client.bootstrap(o.adminToken, o.name === undefined ? {} : { ownerName: o.name });
    } catch (e) {
      if (e instanceof ServerCallError && e.code === 'denied') throw new CliError("the admin token was refused: use the token in the server's --admin-token-file", 4);
      if (e instanceof ServerCallError && e.kind === 'client') throw new CliError(`could not set up the owner: ${e.code}: ${e.message}`, 2);
      throw e;
    }
    if (!boot.ownerCredential) throw new CliError(`this server already has an owner; ${askInvite}`, 1);
    if (boot.serverId !== info.serverId) throw new CliError('the server changed identity while setting up the owner', 1);
    writePrivateFile(paths.ownerProfile, JSON.stringify({ serverId: boot.serverId, memberId: boot.owner.id, credential: boot.ownerCredential }, null, 2) + '\n');
    rememberServer(paths.serverConfig, { urls, serverId: boot.serverId, ...(caFile ? { caFile } : {}) });
    return { serverId: boot.serverId, memberId: boot.owner.id, name: boot.owner.name, role: boot.owner.role, created: true };
  } finally {
    client.close();
  }
}

/** Redeems the invite on the server, stores this person's own credential (owner.json, 0600) and the server (server.json). */
export async function joinWorkspace(home: string, o: JoinOptions): Promise<{ serverId: string; memberId: string; name: string; role: string }> {
  const urls = urlsOf(o.serverUrl);
  const paths = ensureHome(home);
  // Security invariant: a home holds one person's credential; joining never overwrites an existing one.
  if (readTextIfExists(paths.ownerProfile)) throw new CliError('this home already has a member credential (owner.json); to join as someone else use another home: agentteam --home DIR init --server-url … --invite CODE', 1);
  const caFile = o.serverCa ? resolve(o.serverCa) : undefined;
  const client = clientFor({ urls, ...(caFile ? { caFile } : {}) });
  try {
    const info = await whoIs(client, urls, caFile, 'join');
    const joined = await client.join(o.invite.trim());
    if (joined.serverId !== info.serverId) throw new CliError('the server changed identity while joining', 1);
    writePrivateFile(paths.ownerProfile, JSON.stringify({ serverId: joined.serverId, memberId: joined.member.id, credential: joined.credential }, null, 2) + '\n');
    rememberServer(paths.serverConfig, { urls, serverId: joined.serverId, ...(caFile ? { caFile } : {}) });
    return { serverId: joined.serverId, memberId: joined.member.id, name: joined.member.name, role: joined.member.role };
  } catch (e) {
    if (e instanceof ServerCallError && e.untrusted) throw new CliError(`could not join: ${e.message}`, 1);
    if (e instanceof ServerCallError) throw new CliError(`could not join: ${e.code}: ${e.message}${e.code === 'denied' ? '; ask for a new invite' : ''}`, e.code === 'denied' ? 4 : 1);
    throw e;
  } finally {
    client.close();
  }
}
