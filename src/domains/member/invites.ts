// Owns invites: one-time, expiring codes an owner or admin creates, lists and revokes; redeeming one creates a new Human member with its own credential.
import { keyedHash, newId, newToken } from '../../shared/ids.js';
import { AppError } from '../../shared/errors.js';
import { iso, requireAdmin, type Actor, type DomainDeps } from '../../server/context.js';
import { checkName } from '../../shared/bounds.js';
import { listPage, normalizeLimit, type Ordering } from '../../server/pagination.js';
import { INVITE_TTL_MS, INVITES_OPEN_MAX, MEMBER_NAME, MEMBERS_MAX, parseInviteExpiry, type InviteCreated, type InviteDto, type InvitePage, type InviteStatus, type Joined } from './contract.js';
import type { Sql } from '../../server/store/types.js';
import { claimName } from './name-key.js';
import { checkNewName } from './name-rule.js';

interface InviteRow {
  id: string;
  name: string;
  role: 'member' | 'admin';
  created_by: string;
  created_at: number;
  expires_at: number;
  used_by: string | null;
  revoked_at: number | null;
}
const INVITE_COLS = 'id, name, role, created_by, created_at, expires_at, used_by, revoked_at';
const INVITE_ORDER: Ordering = {
  collection: 'invites',
  keys: [
    { column: 'created_at', field: 'created_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'DESC', type: 'text' },
  ],
};

function statusOf(r: InviteRow, now: number): InviteStatus {
  return r.used_by !== null ? 'used' : r.revoked_at !== null ? 'revoked' : now >= r.expires_at ? 'expired' : 'open';
}
// Security invariant: an invite is listed without its code or the code's hash.
const inviteDto = (r: InviteRow, now: number): InviteDto => ({ id: r.id, name: r.name, role: r.role, status: statusOf(r, now), createdBy: r.created_by, createdAt: iso(r.created_at), expiresAt: iso(r.expires_at) });

/** Revokes every open invite the given members made (their removal or demotion), inside the caller's transaction. */
export async function revokeInvitesOf(sql: Sql, memberIds: readonly string[], now: number): Promise<void> {
  // Security invariant: an invite dies with its creator's removal or demotion (redemption checks the creator again).
  for (const id of memberIds) await sql.run('UPDATE invites SET revoked_at = ? WHERE created_by = ? AND used_by IS NULL AND revoked_at IS NULL', [now, id]);
}

const CODE_RE = /^ati_[A-Za-z0-9_-]{43}$/;
// Security invariant: one answer for an unknown, used, expired or revoked code, or one whose maker is gone; nothing about which.
const badCode = () => new AppError('denied', 'this invite code is not valid (unknown, used or expired)');

/** Refuses a new member once the workspace holds MEMBERS_MAX current ones (checked inside the creating transaction). */
export async function checkMemberRoom(sql: Sql): Promise<void> {
  const n = Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM members WHERE removed_at IS NULL'))?.n ?? 0);
  if (n >= MEMBERS_MAX) throw new AppError('validation_failed', `the workspace holds at most ${MEMBERS_MAX} members; remove one first`);
}

export class Invites {
  constructor(private readonly deps: DomainDeps) {}

  private hash(code: string): Buffer {
    return keyedHash(this.deps.meta.credentialKey, `invite:${code}`);
  }

  /** Owner or admin. The code is returned once; only its keyed hash is stored. Admin invites need the owner. */
  async create(actor: Actor, input: { name: string; role?: 'member' | 'admin'; expires?: string }): Promise<InviteCreated> {
    requireAdmin(actor, 'invite members');
    const name = checkNewName(checkName(input.name, MEMBER_NAME));
    const role = input.role ?? 'member';
    if (role === 'admin' && actor.role !== 'owner') throw new AppError('denied', 'only the workspace owner may invite an admin');
    const ttl = input.expires === undefined ? INVITE_TTL_MS : parseInviteExpiry(input.expires);
    if (typeof ttl === 'string') throw new AppError('validation_failed', ttl);
    const code = newToken('ati');
    const now = this.deps.clock.now();
    const id = newId('inv');
    const expiresAt = now + ttl;
    await this.deps.store.tx(async (sql) => {
      await claimName(sql, name); // checked again at redemption: an invite reserves nothing
      // The maker's unused invites that can never redeem (revoked or expired) go, so its invites stay bounded.
      await sql.run('DELETE FROM invites WHERE created_by = ? AND used_by IS NULL AND (revoked_at IS NOT NULL OR expires_at <= ?)', [actor.id, now]);
      const open = Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM invites WHERE created_by = ? AND used_by IS NULL', [actor.id]))?.n ?? 0);
      if (open >= INVITES_OPEN_MAX) throw new AppError('validation_failed', `a member holds at most ${INVITES_OPEN_MAX} open invites; revoke one first (agentteam member invite ls)`);
      await sql.run('INSERT INTO invites (id, code_hash, name, role, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, this.hash(code), name, role, actor.id, now, expiresAt]);
    });
    return { inviteId: id, code, name, role, expiresAt: iso(expiresAt) };
  }

  /** Owner or admin: every invite, newest first, keyset-paged, with its status (never its code). */
  async list(actor: Actor, input: { limit?: number; cursor?: string }): Promise<InvitePage> {
    requireAdmin(actor, 'list invites');
    normalizeLimit(input.limit);
    const now = this.deps.clock.now();
    const q = { ordering: INVITE_ORDER, columns: INVITE_COLS, from: 'invites', where: '1 = 1', params: [], filter: {}, limit: input.limit, cursor: input.cursor };
    return this.deps.store.tx((sql) => listPage(sql, this.deps.cursors, 'invites', q, (rows: InviteRow[]) => rows.map((r) => inviteDto(r, now))));
  }

  /** Owner or admin (an admin invite: the owner only): the invite can no longer be redeemed. Revoking a revoked one changes nothing. */
  async revoke(actor: Actor, inviteId: string): Promise<InviteDto> {
    requireAdmin(actor, 'revoke invites');
    const now = this.deps.clock.now();
    return this.deps.store.tx(async (sql) => {
      const r = await sql.get<InviteRow>(`SELECT ${INVITE_COLS} FROM invites WHERE id = ?`, [inviteId]);
      if (!r) throw new AppError('not_found', 'invite not found');
      if (r.role === 'admin' && actor.role !== 'owner') throw new AppError('denied', 'only the workspace owner may revoke an admin invite');
      if (r.used_by !== null) throw new AppError('conflict', 'this invite was already used; remove the member instead (agentteam member rm)');
      if (r.revoked_at === null) await sql.run('UPDATE invites SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, r.id]);
      return inviteDto({ ...r, revoked_at: r.revoked_at ?? now }, now);
    });
  }

  /**
   * Redeems a code: a new Human member (the invite's name and role) joins #general and gets a fresh credential. The
   * code is marked used in the same transaction, so two redemptions race to one winner.
   */
  async join(input: { code: string }, credentialHash: (c: string) => Buffer): Promise<Joined> {
    if (!CODE_RE.test(input.code)) throw badCode();
    const now = this.deps.clock.now();
    return this.deps.store.tx(async (sql) => {
      const inv = await sql.get<InviteRow>(`SELECT ${INVITE_COLS} FROM invites WHERE code_hash = ?`, [this.hash(input.code)]);
      if (!inv || statusOf(inv, now) !== 'open') throw badCode();
      // The maker must still be a current owner or admin (an invite made before the revoke-on-removal rule existed too).
      const maker = await sql.get<{ role: string; admin: number }>('SELECT role, admin FROM members WHERE id = ? AND removed_at IS NULL', [inv.created_by]);
      if (!maker || (maker.role !== 'owner' && !maker.admin)) throw badCode();
      const ws = await sql.get<{ value: string }>("SELECT value FROM meta WHERE key = 'workspace_id'");
      if (!ws) throw badCode();
      await checkMemberRoom(sql);
      checkNewName(inv.name); // an invite made before the name rule: its name is a new name too
      const claim = await claimName(sql, inv.name);
      const credential = newToken('ats');
      const id = await this.deps.ids.next(sql, 'mem');
      await sql.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at, admin, name_key, name_skeleton) VALUES (?, ?, 'human', 'member', ?, ?, ?, ?, ?)", [
        id,
        inv.name,
        credentialHash(credential),
        now,
        inv.role === 'admin' ? 1 : 0,
        claim.key,
        claim.skeleton,
      ]);
      if ((await sql.run('UPDATE invites SET used_by = ?, used_at = ? WHERE id = ? AND used_by IS NULL AND revoked_at IS NULL', [id, now, inv.id])) !== 1) throw badCode();
      await sql.run('INSERT INTO channel_members (channel_id, member_id) VALUES (?, ?) ON CONFLICT DO NOTHING', ['general', id]);
      return {
        serverId: this.deps.meta.serverId,
        workspaceId: ws.value,
        member: { id, name: inv.name, kind: 'human', role: inv.role, createdAt: iso(now) },
        credential,
      };
    });
  }
}
