// Owns members: bootstrap of the workspace and Human owner, agent creation, credentials (keyed hashes only), authentication.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { constantTimeEqual, keyedHash, newId, newToken } from '../../shared/ids.js';
import { AppError } from '../../shared/errors.js';
import { iso, requireAdmin, requireOwner, type Actor, type DomainDeps } from '../../server/context.js';
import { checkMemberRoom, Invites, revokeInvitesOf } from './invites.js';
import { BatchedLookup } from './lookups.js';
import { claimName } from './name-key.js';
import { stopWhatTheyOwn } from './removal-cascade.js';
import { checkNewName } from './name-rule.js';
import type { Sql } from '../../server/store/types.js';
import { checkName, clipText } from '../../shared/bounds.js';
import { MEMBER_NAME, type AgentCreated, type BootstrapResult, type InviteCreated, type InviteDto, type InvitePage, type Joined, type MemberDto, type MemberKind, type MemberRole } from './contract.js';

interface MemberRow {
  id: string;
  name: string;
  kind: MemberKind;
  role: 'owner' | 'member';
  credential_hash: Buffer;
  created_at: number;
  admin?: number;
}

/** Security invariant: an admin manages any member; anyone else only an agent they created (even when no longer an admin). */
async function requireAdminOrCreator(sql: Sql, actor: Actor, memberId: string, what: string): Promise<void> {
  const ownAgent = actor.kind === 'human' && (await sql.get("SELECT 1 AS x FROM members WHERE id = ? AND kind = 'agent' AND created_by = ?", [memberId, actor.id])) !== undefined;
  if (!ownAgent) requireAdmin(actor, what);
}

/** The stored role column knows owner|member; an admin is a member with the admin flag. */
export function roleOf(r: { role: string; admin?: number | null }): MemberRole {
  return r.role === 'owner' ? 'owner' : r.admin ? 'admin' : 'member';
}

export function memberDto(r: MemberRow): MemberDto {
  return { id: r.id, name: clipText(r.name, MEMBER_NAME.bytes), kind: r.kind, role: roleOf(r), createdAt: iso(r.created_at) };
}

const COLS = 'id, name, kind, role, credential_hash, created_at';
const READ_COLS = `${COLS}, admin`;

/** A current member (a removed one is not found). */
export async function memberById(sql: Sql, id: string): Promise<MemberRow | undefined> {
  return sql.get<MemberRow>(`SELECT ${READ_COLS} FROM members WHERE id = ? AND removed_at IS NULL`, [id]);
}

const BY_CREDENTIAL = `SELECT ${READ_COLS} FROM members WHERE credential_hash = ? AND removed_at IS NULL`;

export class Members {
  /**
   * The current member row of a credential hash, read from the database on every call (nothing is cached). SQLite is
   * in-process: one indexed read, run at once. PostgreSQL: lookups of one event-loop turn share one round trip.
   */
  private readonly byCredential: (h: Buffer) => Promise<MemberRow | undefined>;
  /** The row each authenticated Actor was made from, for the rest of its own request only (the Actor is per request). */
  private readonly authRows = new WeakMap<Actor, MemberRow>();

  constructor(private readonly deps: DomainDeps) {
    if (deps.store.dialect === 'sqlite') this.byCredential = (h) => deps.store.get<MemberRow>(BY_CREDENTIAL, [h]);
    else {
      const batched = new BatchedLookup<MemberRow>(
        deps.store,
        (n) => `SELECT ${READ_COLS} FROM members WHERE credential_hash IN (${Array(n).fill('?').join(', ')}) AND removed_at IS NULL`,
        (r) => Buffer.from(r.credential_hash),
      );
      this.byCredential = (h) => batched.find(h);
    }
  }

  private get meta() {
    return this.deps.meta;
  }

  /** The credential key as a KeyObject, made once per key (meta's key is read each time, so a replaced key is never stale). */
  private key: { raw: Buffer; obj: KeyObject } | undefined;

  private hash(credential: string): Buffer {
    const raw = this.meta.credentialKey;
    if (this.key?.raw !== raw) this.key = { raw, obj: createSecretKey(raw) };
    return keyedHash(this.key.obj, credential);
  }

  /**
   * Idempotent: the first call creates the workspace, the Human owner and channel `general` (owner in it) and returns
   * the owner's credential; later calls return the same workspace and owner without any credential.
   */
  async bootstrap(input: { ownerName?: string }): Promise<BootstrapResult> {
    const givenName = input.ownerName === undefined ? 'Owner' : checkName(input.ownerName, { ...MEMBER_NAME, field: 'ownerName' });
    const now = this.deps.clock.now();
    return this.deps.store.tx(async (sql) => {
      const existing = await sql.get<MemberRow>(`SELECT ${COLS} FROM members WHERE role = 'owner'`);
      const ws = await sql.get<{ value: string }>("SELECT value FROM meta WHERE key = 'workspace_id'");
      if (existing && ws) {
        this.meta.workspaceId = ws.value; // another server process on a shared database may have bootstrapped it
        return { serverId: this.meta.serverId, workspaceId: ws.value, owner: memberDto(existing), created: false };
      }
      // The name rule applies only to a name being given: a repeated bootstrap names nobody.
      const ownerName = checkNewName(givenName, 'ownerName');
      const workspaceId = ws?.value ?? newId('wsp');
      if (!ws) await sql.run("INSERT INTO meta (key, value) VALUES ('workspace_id', ?)", [workspaceId]);
      const credential = newToken('ats');
      const row: MemberRow = { id: await this.deps.ids.next(sql, 'mem'), name: ownerName, kind: 'human', role: 'owner', credential_hash: this.hash(credential), created_at: now };
      const claim = await claimName(sql, ownerName);
      await sql.run(`INSERT INTO members (${COLS}, name_key, name_skeleton) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [row.id, row.name, row.kind, row.role, row.credential_hash, row.created_at, claim.key, claim.skeleton]);
      await sql.run('INSERT INTO channels (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING', ['general', 'general', now]);
      await sql.run('INSERT INTO channel_members (channel_id, member_id) VALUES (?, ?) ON CONFLICT DO NOTHING', ['general', row.id]);
      this.meta.workspaceId = workspaceId;
      return { serverId: this.meta.serverId, workspaceId, owner: memberDto(row), ownerCredential: credential, created: true };
    });
  }

  /** The member a server credential belongs to, or undefined. Security invariant: only keyed hashes are stored and compared. */
  async authenticate(credential: string): Promise<Actor | undefined> {
    if (!/^ats_[A-Za-z0-9_-]{43}$/.test(credential)) return undefined;
    const h = this.hash(credential);
    // Security invariant: a removed member's credential (and its agents') authenticates nobody, on every server process at once.
    const row = await this.byCredential(h);
    if (!row || !constantTimeEqual(row.credential_hash, h)) return undefined;
    const actor: Actor = { id: row.id, name: row.name, kind: row.kind, role: roleOf(row) };
    this.authRows.set(actor, row);
    return actor;
  }

  /** The caller's own member: the row its request was just authenticated with (read then), else a fresh read. */
  async me(actor: Actor): Promise<MemberDto> {
    const row = this.authRows.get(actor) ?? (await memberById(this.deps.store, actor.id));
    if (!row) throw new AppError('not_found', 'member not found');
    return memberDto(row);
  }

  async list(_actor: Actor): Promise<MemberDto[]> {
    const rows = await this.deps.store.all<MemberRow>(`SELECT ${READ_COLS} FROM members WHERE removed_at IS NULL ORDER BY created_at ASC, id ASC`);
    return rows.map(memberDto);
  }

  /**
   * Owner or admin. Names are unique per workspace across kinds (claimName, in the transaction: SQLite's single writer and
   * PostgreSQL's serializable re-run make two racing adds end in one agent and one conflict). The agent's credential
   * is returned once, here; only its keyed hash is kept.
   */
  async createAgent(actor: Actor, input: { name: string }): Promise<AgentCreated> {
    requireAdmin(actor, 'add agents');
    const name = checkNewName(checkName(input.name, MEMBER_NAME));
    const credential = newToken('ats');
    const row = await this.deps.store.tx(async (sql) => {
      const claim = await claimName(sql, name);
      await checkMemberRoom(sql);
      const row: MemberRow = { id: await this.deps.ids.next(sql, 'agt'), name, kind: 'agent', role: 'member', credential_hash: this.hash(credential), created_at: this.deps.clock.now() };
      await sql.run(`INSERT INTO members (${COLS}, created_by, name_key, name_skeleton) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [row.id, row.name, row.kind, row.role, row.credential_hash, row.created_at, actor.id, claim.key, claim.skeleton]);
      return row;
    });
    return { agent: memberDto(row), credential };
  }

  /**
   * Renames an agent (an admin, or the Human who created it). The new name meets the name rule like any new name and is
   * unique (claimName); the old one is released (the agent's messages show its current name, by id).
   */
  async renameAgent(actor: Actor, { memberId, ...input }: { memberId: string; name: string }): Promise<MemberDto> {
    const name = checkNewName(checkName(input.name, MEMBER_NAME));
    return this.deps.store.tx(async (sql) => {
      const target = await memberById(sql, memberId);
      await requireAdminOrCreator(sql, actor, memberId, 'rename agents');
      if (!target || target.kind !== 'agent') throw new AppError('not_found', 'agent not found');
      const claim = await claimName(sql, name, memberId);
      await sql.run('UPDATE members SET name = ?, name_key = ?, name_skeleton = ? WHERE id = ?', [name, claim.key, claim.skeleton, memberId]);
      return memberDto({ ...target, name });
    });
  }

  /**
   * Owner or admin: removes a member (an admin only with the owner; the owner never). A removed Human's agents (the
   * ones it added) go too. Each credential is replaced by the hash of a fresh secret nobody holds, so it stops
   * authenticating at once on every server process; channel seats are freed; messages and tasks stay as history.
   */
  async remove(actor: Actor, { memberId }: { memberId: string }): Promise<{ removed: string[] }> {
    return this.deps.store.tx(async (sql) => {
      const target = await memberById(sql, memberId);
      await requireAdminOrCreator(sql, actor, memberId, 'remove members');
      if (!target) throw new AppError('not_found', 'member not found');
      if (target.role === 'owner') throw new AppError('denied', 'the workspace owner cannot be removed');
      if (target.admin && actor.role !== 'owner') throw new AppError('denied', 'only the workspace owner may remove an admin');
      const agents = target.kind === 'human' ? await sql.all<{ id: string }>("SELECT id FROM members WHERE kind = 'agent' AND created_by = ? AND removed_at IS NULL", [target.id]) : [];
      const ids = [target.id, ...agents.map((a) => a.id)];
      const now = this.deps.clock.now();
      for (const id of ids) {
        await sql.run('UPDATE members SET removed_at = ?, credential_hash = ? WHERE id = ? AND removed_at IS NULL', [now, this.hash(newToken('ats')), id]);
        await sql.run('DELETE FROM channel_members WHERE member_id = ?', [id]);
      }
      await stopWhatTheyOwn(sql, this.deps.ids, ids, actor.id, now);
      await revokeInvitesOf(sql, ids, now);
      return { removed: ids };
    });
  }

  /**
   * Owner only: makes a person an admin or a plain member. The owner's own role never changes; a demoted admin's open
   * invites are revoked in the same transaction.
   */
  async setRole(actor: Actor, { memberId, role }: { memberId: string; role: 'admin' | 'member' }): Promise<MemberDto> {
    // Security invariant: only the owner grants or takes the admin role.
    requireOwner(actor, 'change roles');
    return this.deps.store.tx(async (sql) => {
      const target = await memberById(sql, memberId);
      if (!target) throw new AppError('not_found', 'member not found');
      if (target.role === 'owner') throw new AppError('denied', "the workspace owner's role cannot change");
      if (target.kind !== 'human') throw new AppError('validation_failed', 'only a person has a role; an agent acts within the role of the person who added it');
      const admin = role === 'admin' ? 1 : 0;
      await sql.run('UPDATE members SET admin = ? WHERE id = ?', [admin, memberId]);
      if (!admin) await revokeInvitesOf(sql, [memberId], this.deps.clock.now());
      return memberDto({ ...target, admin });
    });
  }

  /** Owner or admin: a one-time, expiring invite code for a new Human member. */
  invite(actor: Actor, input: { name: string; role?: 'member' | 'admin'; expires?: string }): Promise<InviteCreated> {
    return new Invites(this.deps).create(actor, input);
  }

  invites(actor: Actor, input: { limit?: number; cursor?: string }): Promise<InvitePage> {
    return new Invites(this.deps).list(actor, input);
  }

  revokeInvite(actor: Actor, { inviteId }: { inviteId: string }): Promise<InviteDto> {
    return new Invites(this.deps).revoke(actor, inviteId);
  }

  /** No credential needed: the code is the credential. Creates a new Human member with its own server credential. */
  join(input: { code: string }): Promise<Joined> {
    return new Invites(this.deps).join(input, (c) => this.hash(c));
  }
}
