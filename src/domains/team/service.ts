// Owns teams on the server: create (handle unique ignoring case), get, keyset list (displayName, handle, id ASC), revision-checked update, members.
import { AppError } from '../../shared/errors.js';
import { idOf, isOwner, iso, text, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, nextMoved, normalizeLimit, type Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { actorNames, nameOf, withNames, type MemberName } from '../member/names.js';
import { memberById } from '../member/service.js';
import { DESCRIPTION_MAX, DISPLAY_NAME_MAX, HANDLE_PATTERN, MAX_MEMBERS, type TeamDto, type TeamMemberDto, type TeamMemberPage, type TeamPage } from './contract.js';

interface TeamRow {
  id: string;
  handle: string;
  handle_fold: string;
  display_name: string;
  description: string;
  created_by: string;
  revision: number;
  created_at: number;
  updated_at: number;
  moved_seq: number;
}

const COLS = 'id, handle, handle_fold, display_name, description, created_by, revision, created_at, updated_at, moved_seq';
const HANDLE_RE = new RegExp(HANDLE_PATTERN);

/** Spec: displayName ASC, handle ASC, teamId ASC (binary collation). A rename moves a team, so cursors carry moved_seq. */
export const TEAM_ORDER: Ordering = {
  collection: 'teams',
  keys: [
    { column: 'display_name', field: 'display_name', dir: 'ASC', type: 'text' },
    { column: 'handle', field: 'handle', dir: 'ASC', type: 'text' },
    { column: 'id', field: 'id', dir: 'ASC', type: 'text' },
  ],
  moved: 'moved_seq',
};

/** A team's members by member id; ids never change, so no stale check is needed. */
export const TEAM_MEMBER_ORDER: Ordering = { collection: 'team_members', keys: [{ column: 'tm.member_id', field: 'member_id', dir: 'ASC', type: 'text' }] };

const dto = (r: TeamRow, names: Map<string, MemberName>): TeamDto => ({
  id: r.id,
  handle: r.handle,
  displayName: r.display_name,
  description: r.description,
  createdBy: r.created_by,
  creator: nameOf(names, r.created_by),
  revision: r.revision,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** The DTOs of `rows` with their creators' names: one batched query for the whole set. */
const dtos = (sql: Pick<Sql, 'all'>, rows: TeamRow[]): Promise<TeamDto[]> => withNames(sql, rows, (r) => [r.created_by], dto);
const one = async (sql: Sql, r: TeamRow): Promise<TeamDto> => (await dtos(sql, [r]))[0]!;

function handleOf(v: unknown): string {
  if (typeof v !== 'string' || !HANDLE_RE.test(v)) throw new AppError('validation_failed', `handle must match ${HANDLE_PATTERN}`);
  return v;
}

export class Teams {
  constructor(private readonly deps: DomainDeps) {}

  private async load(sql: Sql, teamId: unknown): Promise<TeamRow> {
    const row = await sql.get<TeamRow>(`SELECT ${COLS} FROM teams WHERE id = ?`, [idOf(teamId, 'team')]);
    if (!row) throw new AppError('not_found', 'team not found');
    return row;
  }

  /** Security invariant: only the creator and the Human owner change a team or its members. */
  private mayChange(actor: Actor, r: TeamRow, what: string): void {
    if (r.created_by !== actor.id && !isOwner(actor)) throw new AppError('denied', `only the team's creator or the workspace owner may ${what}`);
  }

  private async handleFree(sql: Sql, fold: string, except?: string): Promise<void> {
    const other = await sql.get<{ id: string }>('SELECT id FROM teams WHERE handle_fold = ?', [fold]);
    if (other && other.id !== except) throw new AppError('conflict', `team handle ${fold} is taken (handles ignore case)`);
  }

  /** Bumps revision and updatedAt; a change of displayName or handle also moves the team in list order. */
  private async save(sql: Sql, r: TeamRow, next: Partial<TeamRow>, moves: boolean): Promise<TeamRow> {
    const row: TeamRow = { ...r, ...next, revision: r.revision + 1, updated_at: Math.max(this.deps.clock.now(), r.updated_at), moved_seq: moves ? await nextMoved(sql, 'teams') : r.moved_seq };
    const changed = await sql.run('UPDATE teams SET handle = ?, handle_fold = ?, display_name = ?, description = ?, revision = ?, updated_at = ?, moved_seq = ? WHERE id = ? AND revision = ?', [
      row.handle,
      row.handle_fold,
      row.display_name,
      row.description,
      row.revision,
      row.updated_at,
      row.moved_seq,
      row.id,
      r.revision,
    ]);
    if (changed !== 1) throw new AppError('conflict', 'the team changed concurrently', { hint: 'get the team again and reapply your change' });
    return row;
  }

  async create(actor: Actor, input: { handle: string; displayName: string; description?: string }): Promise<TeamDto> {
    const handle = handleOf(input.handle);
    const displayName = text(input.displayName, 'displayName', 1, DISPLAY_NAME_MAX);
    const description = input.description === undefined ? '' : text(input.description, 'description', 0, DESCRIPTION_MAX);
    return this.deps.store.tx(async (sql) => {
      await this.handleFree(sql, handle.toLowerCase());
      const now = this.deps.clock.now();
      const row: TeamRow = { id: await this.deps.ids.next(sql, 'team'), handle, handle_fold: handle.toLowerCase(), display_name: displayName, description, created_by: actor.id, revision: 1, created_at: now, updated_at: now, moved_seq: 0 };
      await sql.run(`INSERT INTO teams (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [row.id, row.handle, row.handle_fold, row.display_name, row.description, row.created_by, row.revision, row.created_at, row.updated_at, row.moved_seq]);
      return dto(row, actorNames(actor));
    });
  }

  async get(_actor: Actor, teamId: string): Promise<TeamDto> {
    return this.deps.store.tx(async (sql) => one(sql, await this.load(sql, teamId)));
  }

  async list(_actor: Actor, input: { limit?: number; cursor?: string }): Promise<TeamPage> {
    normalizeLimit(input.limit);
    const q = { ordering: TEAM_ORDER, columns: COLS, from: 'teams', where: '1 = 1', params: [], filter: {}, limit: input.limit, cursor: input.cursor };
    return this.deps.store.tx((sql) => listPage(sql, this.deps.cursors, 'teams', q, (rows: TeamRow[]) => dtos(sql, rows)));
  }

  async update(actor: Actor, input: { teamId: string; expectedRevision: number; handle?: string; displayName?: string; description?: string }): Promise<TeamDto> {
    if (input.handle === undefined && input.displayName === undefined && input.description === undefined) throw new AppError('validation_failed', 'give handle, displayName and/or description to change');
    const handle = input.handle === undefined ? undefined : handleOf(input.handle);
    const displayName = input.displayName === undefined ? undefined : text(input.displayName, 'displayName', 1, DISPLAY_NAME_MAX);
    const description = input.description === undefined ? undefined : text(input.description, 'description', 0, DESCRIPTION_MAX);
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.teamId);
      this.mayChange(actor, r, 'update it');
      if (r.revision !== input.expectedRevision) throw new AppError('conflict', `team is at revision ${r.revision}, not ${input.expectedRevision}`, { hint: 'get the team again and reapply your change' });
      if (handle !== undefined) await this.handleFree(sql, handle.toLowerCase(), r.id);
      const next: Partial<TeamRow> = {};
      if (handle !== undefined) (next.handle = handle), (next.handle_fold = handle.toLowerCase());
      if (displayName !== undefined) next.display_name = displayName;
      if (description !== undefined) next.description = description;
      const moves = (handle !== undefined && handle !== r.handle) || (displayName !== undefined && displayName !== r.display_name);
      return one(sql, await this.save(sql, r, next, moves));
    });
  }

  async addMember(actor: Actor, input: { teamId: string; memberId: string }): Promise<{ teamId: string; member: TeamMemberDto }> {
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.teamId);
      this.mayChange(actor, r, 'add members');
      const m = typeof input.memberId === 'string' ? await memberById(sql, input.memberId) : undefined;
      if (!m) throw new AppError('not_found', 'member not found');
      const existing = await sql.get<{ added_at: number }>('SELECT added_at FROM team_members WHERE team_id = ? AND member_id = ?', [r.id, m.id]);
      if (existing) return { teamId: r.id, member: { memberId: m.id, name: m.name, kind: m.kind, addedAt: iso(existing.added_at) } };
      const count = Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM team_members WHERE team_id = ?', [r.id]))?.n ?? 0);
      if (count >= MAX_MEMBERS) throw new AppError('validation_failed', `a team has at most ${MAX_MEMBERS} members`);
      const now = this.deps.clock.now();
      await sql.run('INSERT INTO team_members (team_id, member_id, added_at) VALUES (?, ?, ?)', [r.id, m.id, now]);
      await this.save(sql, r, {}, false);
      return { teamId: r.id, member: { memberId: m.id, name: m.name, kind: m.kind, addedAt: iso(now) } };
    });
  }

  async removeMember(actor: Actor, input: { teamId: string; memberId: string }): Promise<{ teamId: string; memberId: string; removed: boolean }> {
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.teamId);
      this.mayChange(actor, r, 'remove members');
      const removed = (await sql.run('DELETE FROM team_members WHERE team_id = ? AND member_id = ?', [r.id, idOf(input.memberId, 'member')])) === 1;
      if (removed) await this.save(sql, r, {}, false);
      return { teamId: r.id, memberId: input.memberId, removed };
    });
  }

  /** Every member reads a team's members, by member id; the team is bound into the cursor. */
  async members(_actor: Actor, input: { teamId: string; limit?: number; cursor?: string }): Promise<TeamMemberPage> {
    normalizeLimit(input.limit);
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.teamId);
      const q = {
        ordering: TEAM_MEMBER_ORDER,
        columns: 'tm.member_id, m.name, m.kind, tm.added_at',
        from: 'team_members tm JOIN members m ON m.id = tm.member_id',
        where: 'tm.team_id = ?',
        params: [r.id],
        filter: { teamId: r.id },
        limit: input.limit,
        cursor: input.cursor,
      };
      return listPage(sql, this.deps.cursors, 'members', q, (rows: { member_id: string; name: string; kind: 'human' | 'agent'; added_at: number }[]) =>
        rows.map((x) => ({ memberId: x.member_id, name: x.name, kind: x.kind, addedAt: iso(x.added_at) })),
      );
    });
  }
}
