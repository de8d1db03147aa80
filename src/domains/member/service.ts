// Owns members: bootstrap of the workspace and Human owner, agent creation, credentials (keyed hashes only), authentication.
import { constantTimeEqual, keyedHash, newCompactId, newId, newToken } from '../../shared/ids.js';
import { AppError } from '../../shared/errors.js';
import { iso, requireOwner, type Actor, type DomainDeps } from '../../server/context.js';
import type { Sql } from '../../server/store/types.js';
import { checkText, clipText } from '../../shared/bounds.js';
import { MEMBER_NAME, type AgentCreated, type BootstrapResult, type MemberDto, type MemberKind } from './contract.js';

interface MemberRow {
  id: string;
  name: string;
  kind: MemberKind;
  role: 'owner' | 'member';
  credential_hash: Buffer;
  created_at: number;
}

export function memberDto(r: MemberRow): MemberDto {
  return { id: r.id, name: clipText(r.name, MEMBER_NAME.bytes), kind: r.kind, role: r.role, createdAt: iso(r.created_at) };
}

const COLS = 'id, name, kind, role, credential_hash, created_at';

export async function memberById(sql: Sql, id: string): Promise<MemberRow | undefined> {
  return sql.get<MemberRow>(`SELECT ${COLS} FROM members WHERE id = ?`, [id]);
}

export class Members {
  constructor(private readonly deps: DomainDeps) {}

  private get meta() {
    return this.deps.meta;
  }

  private hash(credential: string): Buffer {
    return keyedHash(this.meta.credentialKey, credential);
  }

  /**
   * Idempotent: the first call creates the workspace, the Human owner and channel `general` (owner in it) and returns
   * the owner's credential; later calls return the same workspace and owner without any credential.
   */
  async bootstrap(input: { ownerName?: string }): Promise<BootstrapResult> {
    const ownerName = input.ownerName === undefined ? 'Owner' : checkText(input.ownerName, { ...MEMBER_NAME, field: 'ownerName' });
    const now = this.deps.clock.now();
    return this.deps.store.tx(async (sql) => {
      const existing = await sql.get<MemberRow>(`SELECT ${COLS} FROM members WHERE role = 'owner'`);
      const ws = await sql.get<{ value: string }>("SELECT value FROM meta WHERE key = 'workspace_id'");
      if (existing && ws) {
        this.meta.workspaceId = ws.value; // another server process on a shared database may have bootstrapped it
        return { serverId: this.meta.serverId, workspaceId: ws.value, owner: memberDto(existing), created: false };
      }
      const workspaceId = ws?.value ?? newId('wsp');
      if (!ws) await sql.run("INSERT INTO meta (key, value) VALUES ('workspace_id', ?)", [workspaceId]);
      const credential = newToken('ats');
      const row: MemberRow = { id: newCompactId('mem'), name: ownerName, kind: 'human', role: 'owner', credential_hash: this.hash(credential), created_at: now };
      await sql.run(`INSERT INTO members (${COLS}) VALUES (?, ?, ?, ?, ?, ?)`, [row.id, row.name, row.kind, row.role, row.credential_hash, row.created_at]);
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
    const row = await this.deps.store.get<MemberRow>(`SELECT ${COLS} FROM members WHERE credential_hash = ?`, [h]);
    if (!row || !constantTimeEqual(Buffer.from(row.credential_hash), h)) return undefined;
    return { id: row.id, name: row.name, kind: row.kind, role: row.role };
  }

  async me(actor: Actor): Promise<MemberDto> {
    const row = await memberById(this.deps.store, actor.id);
    if (!row) throw new AppError('not_found', 'member not found');
    return memberDto(row);
  }

  async list(_actor: Actor): Promise<MemberDto[]> {
    const rows = await this.deps.store.all<MemberRow>(`SELECT ${COLS} FROM members ORDER BY created_at ASC, id ASC`);
    return rows.map(memberDto);
  }

  /** Owner-only. The agent's credential is returned once, here; only its keyed hash is kept. */
  async createAgent(actor: Actor, input: { name: string }): Promise<AgentCreated> {
    requireOwner(actor, 'create agents');
    const name = checkText(input.name, MEMBER_NAME);
    const credential = newToken('ats');
    const row: MemberRow = { id: newCompactId('agt'), name, kind: 'agent', role: 'member', credential_hash: this.hash(credential), created_at: this.deps.clock.now() };
    await this.deps.store.tx((sql) =>
      sql.run(`INSERT INTO members (${COLS}) VALUES (?, ?, ?, ?, ?, ?)`, [row.id, row.name, row.kind, row.role, row.credential_hash, row.created_at]),
    );
    return { agent: memberDto(row), credential };
  }
}
