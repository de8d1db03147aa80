// Owns projects on the server: create, get, keyset list (updatedAt DESC, id ASC; status and name filters), revision-checked update, archive/unarchive.
import { AppError } from '../../shared/errors.js';
import { idOf, isOwner, iso, text, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, nextMoved, normalizeLimit, type Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { actorNames, nameOf, withNames, type MemberName } from '../member/names.js';
import { DESCRIPTION_MAX, NAME_MAX, PROJECT_STATUSES, QUERY_MAX, type ProjectDto, type ProjectPage, type ProjectStatus } from './contract.js';

interface ProjectRow {
  id: string;
  name: string;
  name_fold: string;
  description: string;
  status: ProjectStatus;
  created_by: string;
  revision: number;
  created_at: number;
  updated_at: number;
  moved_seq: number;
}

const COLS = 'id, name, name_fold, description, status, created_by, revision, created_at, updated_at, moved_seq';

/** Spec: updatedAt DESC, id ASC. Every update moves a project, so cursors carry the moved_seq high-water mark. */
export const PROJECT_ORDER: Ordering = {
  collection: 'projects',
  keys: [
    { column: 'updated_at', field: 'updated_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'ASC', type: 'text' },
  ],
  moved: 'moved_seq',
};

const dto = (r: ProjectRow, names: Map<string, MemberName>): ProjectDto => ({
  id: r.id,
  name: r.name,
  description: r.description,
  status: r.status,
  createdBy: r.created_by,
  creator: nameOf(names, r.created_by),
  revision: r.revision,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** The DTOs of `rows` with their creators' names: one batched query for the whole set. */
const dtos = (sql: Pick<Sql, 'all'>, rows: ProjectRow[]): Promise<ProjectDto[]> => withNames(sql, rows, (r) => [r.created_by], dto);
const one = async (sql: Sql, r: ProjectRow): Promise<ProjectDto> => (await dtos(sql, [r]))[0]!;

/** `%`, `_` and `\` in a name query match themselves. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The project of `id`, for other domains (tasks filed under a project): undefined when there is none. */
export async function projectById(sql: Sql, id: string): Promise<{ id: string; status: ProjectStatus } | undefined> {
  return sql.get<{ id: string; status: ProjectStatus }>('SELECT id, status FROM projects WHERE id = ?', [id]);
}

export class Projects {
  constructor(private readonly deps: DomainDeps) {}

  private async load(sql: Sql, projectId: unknown): Promise<ProjectRow> {
    const row = await sql.get<ProjectRow>(`SELECT ${COLS} FROM projects WHERE id = ?`, [idOf(projectId, 'project')]);
    if (!row) throw new AppError('not_found', 'project not found');
    return row;
  }

  /** Security invariant: only the creator and the Human owner change a project. */
  private mayChange(actor: Actor, r: ProjectRow, what: string): void {
    if (r.created_by !== actor.id && !isOwner(actor)) throw new AppError('denied', `only the project's creator or the workspace owner may ${what} it`);
  }

  private async save(sql: Sql, r: ProjectRow, expectedRevision: number | undefined, next: Partial<ProjectRow>): Promise<ProjectDto> {
    if (expectedRevision !== undefined && r.revision !== expectedRevision) {
      throw new AppError('conflict', `project is at revision ${r.revision}, not ${expectedRevision}`, { hint: 'get the project again and reapply your change' });
    }
    const row: ProjectRow = { ...r, ...next, revision: r.revision + 1, updated_at: Math.max(this.deps.clock.now(), r.updated_at), moved_seq: await nextMoved(sql, 'projects') };
    const changed = await sql.run('UPDATE projects SET name = ?, name_fold = ?, description = ?, status = ?, revision = ?, updated_at = ?, moved_seq = ? WHERE id = ? AND revision = ?', [
      row.name,
      row.name_fold,
      row.description,
      row.status,
      row.revision,
      row.updated_at,
      row.moved_seq,
      row.id,
      r.revision,
    ]);
    if (changed !== 1) throw new AppError('conflict', 'the project changed concurrently', { hint: 'get the project again and reapply your change' });
    return one(sql, row);
  }

  async create(actor: Actor, input: { name: string; description?: string }): Promise<ProjectDto> {
    const name = text(input.name, 'name', 1, NAME_MAX);
    const description = input.description === undefined ? '' : text(input.description, 'description', 0, DESCRIPTION_MAX);
    const row = await this.deps.store.tx(async (sql) => {
      const now = this.deps.clock.now();
      const r: ProjectRow = { id: await this.deps.ids.next(sql, 'prj'), name, name_fold: name.toLowerCase(), description, status: 'active', created_by: actor.id, revision: 1, created_at: now, updated_at: now, moved_seq: 0 };
      await sql.run(`INSERT INTO projects (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [r.id, r.name, r.name_fold, r.description, r.status, r.created_by, r.revision, r.created_at, r.updated_at, r.moved_seq]);
      return r;
    });
    return dto(row, actorNames(actor));
  }

  async get(_actor: Actor, projectId: string): Promise<ProjectDto> {
    return this.deps.store.tx(async (sql) => one(sql, await this.load(sql, projectId)));
  }

  /** Every member reads. `query` matches a case-folded substring of the name; both filters are bound into the cursor. */
  async list(_actor: Actor, input: { status?: string; query?: string; limit?: number; cursor?: string }): Promise<ProjectPage> {
    if (input.status !== undefined && !(PROJECT_STATUSES as readonly string[]).includes(input.status)) throw new AppError('validation_failed', `status must be one of: ${PROJECT_STATUSES.join(', ')}`);
    const query = input.query === undefined ? null : text(input.query, 'query', 1, QUERY_MAX).toLowerCase();
    normalizeLimit(input.limit);
    const where = ['1 = 1'];
    const params: string[] = [];
    if (input.status) (where.push('status = ?'), params.push(input.status));
    if (query) (where.push("name_fold LIKE ? ESCAPE '\\'"), params.push(likePattern(query)));
    const filter = { status: input.status ?? null, query };
    const q = { ordering: PROJECT_ORDER, columns: COLS, from: 'projects', where: where.join(' AND '), params, filter, limit: input.limit, cursor: input.cursor };
    return this.deps.store.tx((sql) => listPage(sql, this.deps.cursors, 'projects', q, (rows: ProjectRow[]) => dtos(sql, rows)));
  }

  async update(actor: Actor, input: { projectId: string; expectedRevision: number; name?: string; description?: string }): Promise<ProjectDto> {
    if (input.name === undefined && input.description === undefined) throw new AppError('validation_failed', 'give name and/or description to change');
    const name = input.name === undefined ? undefined : text(input.name, 'name', 1, NAME_MAX);
    const description = input.description === undefined ? undefined : text(input.description, 'description', 0, DESCRIPTION_MAX);
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.projectId);
      this.mayChange(actor, r, 'update');
      return this.save(sql, r, input.expectedRevision, { ...(name !== undefined ? { name, name_fold: name.toLowerCase() } : {}), ...(description !== undefined ? { description } : {}) });
    });
  }

  async setStatus(actor: Actor, input: { projectId: string; expectedRevision?: number }, to: ProjectStatus): Promise<ProjectDto> {
    const verb = to === 'archived' ? 'archive' : 'unarchive';
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.projectId);
      this.mayChange(actor, r, verb);
      if (r.status === to) throw new AppError('conflict', `cannot ${verb} a project that is ${r.status}`);
      return this.save(sql, r, input.expectedRevision, { status: to });
    });
  }
}
