// Owns the workspace read model on the server: its name and counts, and the keyset member directory (name, id ASC; kind and name filters).
import { AppError } from '../../shared/errors.js';
import { iso, text, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, normalizeLimit, type Ordering } from '../../server/pagination.js';
import { roleOf } from '../member/service.js';
import { QUERY_MAX, type WorkspaceDto, type WorkspaceMemberPage } from './contract.js';

/** Member names never change, so the order needs no moved check. Binary collation on both engines. */
export const WORKSPACE_MEMBER_ORDER: Ordering = {
  collection: 'workspace_members',
  keys: [
    { column: 'name', field: 'name', dir: 'ASC', type: 'text' },
    { column: 'id', field: 'id', dir: 'ASC', type: 'text' },
  ],
};

/** `%`, `_` and `\` in a name query match themselves. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class Workspaces {
  constructor(private readonly deps: DomainDeps) {}

  /** Every member reads the workspace (authentication already proved membership). */
  async get(_actor: Actor): Promise<WorkspaceDto> {
    return this.deps.store.tx(async (sql) => {
      const n = async (q: string) => Number((await sql.get<{ n: number }>(q))?.n ?? 0);
      const name = (await sql.get<{ value: string }>("SELECT value FROM meta WHERE key = 'workspace_name'"))?.value ?? 'Workspace';
      const ws = (await sql.get<{ value: string }>("SELECT value FROM meta WHERE key = 'workspace_id'"))?.value;
      if (!ws) throw new AppError('not_found', 'the workspace is not bootstrapped');
      return {
        id: ws,
        name,
        counts: {
          members: await n('SELECT COUNT(*) AS n FROM members WHERE removed_at IS NULL'),
          humans: await n("SELECT COUNT(*) AS n FROM members WHERE kind = 'human' AND removed_at IS NULL"),
          agents: await n("SELECT COUNT(*) AS n FROM members WHERE kind = 'agent' AND removed_at IS NULL"),
          channels: await n('SELECT COUNT(*) AS n FROM channels'),
          tasks: await n('SELECT COUNT(*) AS n FROM tasks'),
          projects: await n('SELECT COUNT(*) AS n FROM projects'),
          teams: await n('SELECT COUNT(*) AS n FROM teams'),
        },
      };
    });
  }

  /** Every member reads the directory; both filters are bound into the cursor. */
  async members(_actor: Actor, input: { kind?: string; query?: string; limit?: number; cursor?: string }): Promise<WorkspaceMemberPage> {
    if (input.kind !== undefined && input.kind !== 'human' && input.kind !== 'agent') throw new AppError('validation_failed', 'kind must be one of: human, agent');
    const query = input.query === undefined ? null : text(input.query, 'query', 1, QUERY_MAX).toLowerCase();
    normalizeLimit(input.limit);
    const where = ['removed_at IS NULL'];
    const params: string[] = [];
    if (input.kind) (where.push('kind = ?'), params.push(input.kind));
    if (query) (where.push("LOWER(name) LIKE ? ESCAPE '\\'"), params.push(likePattern(query)));
    const q = {
      ordering: WORKSPACE_MEMBER_ORDER,
      columns: 'id, name, kind, role, admin, created_at',
      from: 'members',
      where: where.join(' AND '),
      params,
      filter: { kind: input.kind ?? null, query },
      limit: input.limit,
      cursor: input.cursor,
    };
    return this.deps.store.tx((sql) =>
      listPage(sql, this.deps.cursors, 'members', q, (rows: { id: string; name: string; kind: 'human' | 'agent'; role: 'owner' | 'member'; admin: number | null; created_at: number }[]) =>
        rows.map((r) => ({ memberId: r.id, name: r.name, kind: r.kind, role: roleOf(r), joinedAt: iso(r.created_at) })),
      ),
    );
  }
}
