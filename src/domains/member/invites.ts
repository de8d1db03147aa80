// Owns invites: one-time, expiring codes an owner or admin creates; redeeming one creates a new Human member with its own credential.
import { keyedHash, newId, newToken } from '../../shared/ids.js';
import { AppError } from '../../shared/errors.js';
import { iso, requireAdmin, type Actor, type DomainDeps } from '../../server/context.js';
import { checkName } from '../../shared/bounds.js';
import { INVITE_TTL_MS, MEMBER_NAME, MEMBERS_MAX, type InviteCreated, type Joined } from './contract.js';
import type { Sql } from '../../server/store/types.js';
import { claimName } from './name-key.js';

const CODE_RE = /^ati_[A-Za-z0-9_-]{43}$/;
// Security invariant: one answer for an unknown, used or expired code; nothing about which.
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
  async create(actor: Actor, input: { name: string; role?: 'member' | 'admin' }): Promise<InviteCreated> {
    requireAdmin(actor, 'invite members');
    const name = checkName(input.name, MEMBER_NAME);
    const role = input.role ?? 'member';
    if (role === 'admin' && actor.role !== 'owner') throw new AppError('denied', 'only the workspace owner may invite an admin');
    const code = newToken('ati');
    const now = this.deps.clock.now();
    const id = newId('inv');
    const expiresAt = now + INVITE_TTL_MS;
    await this.deps.store.tx(async (sql) => {
      await claimName(sql, name); // checked again at redemption: an invite reserves nothing
      await sql.run('INSERT INTO invites (id, code_hash, name, role, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, this.hash(code), name, role, actor.id, now, expiresAt]);
    });
    return { inviteId: id, code, name, role, expiresAt: iso(expiresAt) };
  }

  /**
   * Redeems a code: a new Human member (the invite's name and role) joins #general and gets a fresh credential. The
   * code is marked used in the same transaction, so two redemptions race to one winner.
   */
  async join(input: { code: string }, credentialHash: (c: string) => Buffer): Promise<Joined> {
    if (!CODE_RE.test(input.code)) throw badCode();
    const now = this.deps.clock.now();
    return this.deps.store.tx(async (sql) => {
      const inv = await sql.get<{ id: string; name: string; role: 'member' | 'admin'; expires_at: number; used_by: string | null }>(
        'SELECT id, name, role, expires_at, used_by FROM invites WHERE code_hash = ?',
        [this.hash(input.code)],
      );
      if (!inv || inv.used_by !== null || now >= inv.expires_at) throw badCode();
      const ws = await sql.get<{ value: string }>("SELECT value FROM meta WHERE key = 'workspace_id'");
      if (!ws) throw badCode();
      await checkMemberRoom(sql);
      const key = await claimName(sql, inv.name);
      const credential = newToken('ats');
      const id = await this.deps.ids.next(sql, 'mem');
      await sql.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at, admin, name_key) VALUES (?, ?, 'human', 'member', ?, ?, ?, ?)", [
        id,
        inv.name,
        credentialHash(credential),
        now,
        inv.role === 'admin' ? 1 : 0,
        key,
      ]);
      if ((await sql.run('UPDATE invites SET used_by = ?, used_at = ? WHERE id = ? AND used_by IS NULL', [id, now, inv.id])) !== 1) throw badCode();
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
