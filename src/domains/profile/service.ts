// Owns member profiles on the server: public reads of any member, and own-profile edits (display name, bio, status) with a revision.
import { AppError } from '../../shared/errors.js';
import { idOf, iso, type Actor, type DomainDeps } from '../../server/context.js';
import type { Sql } from '../../server/store/types.js';
import { memberById } from '../member/service.js';
import { BIO_MAX, boundedField, DISPLAY_NAME_MAX, STATUS_MAX, type ProfileDto, type ProfileUpdate } from './contract.js';

interface ProfileRow {
  display_name: string;
  bio: string;
  status: string;
  revision: number;
  updated_at: number;
}

export class Profiles {
  constructor(private readonly deps: DomainDeps) {}

  private async read(sql: Sql, memberId: string): Promise<ProfileDto> {
    const m = await memberById(sql, idOf(memberId, 'member'));
    if (!m) throw new AppError('not_found', 'member not found');
    const p = await sql.get<ProfileRow>('SELECT display_name, bio, status, revision, updated_at FROM profiles WHERE member_id = ?', [m.id]);
    return { memberId: m.id, name: m.name, kind: m.kind, displayName: p?.display_name ?? m.name, bio: p?.bio ?? '', status: p?.status ?? '', revision: p?.revision ?? 0, updatedAt: p ? iso(p.updated_at) : null };
  }

  /** Every member reads every public profile; the default is the caller's own. */
  async get(actor: Actor, input: { memberId?: string }): Promise<ProfileDto> {
    return this.deps.store.tx((sql) => this.read(sql, input.memberId ?? actor.id));
  }

  /** Security invariant: a member edits only their own profile; naming anyone else (even as the owner) is denied. */
  async update(actor: Actor, input: ProfileUpdate & { memberId?: string }): Promise<ProfileDto> {
    if (input.memberId !== undefined && input.memberId !== actor.id) throw new AppError('denied', 'a member may edit only their own profile');
    if (input.displayName === undefined && input.bio === undefined && input.status === undefined) throw new AppError('validation_failed', 'give displayName, bio and/or status to change');
    const displayName = input.displayName === undefined ? undefined : boundedField(input.displayName, 'displayName', 1, DISPLAY_NAME_MAX);
    const bio = input.bio === undefined ? undefined : boundedField(input.bio, 'bio', 0, BIO_MAX);
    const status = input.status === undefined ? undefined : boundedField(input.status, 'status', 0, STATUS_MAX);
    return this.deps.store.tx(async (sql) => {
      const cur = await this.read(sql, actor.id);
      const now = Math.max(this.deps.clock.now(), cur.updatedAt ? Date.parse(cur.updatedAt) : 0);
      const next = [displayName ?? cur.displayName, bio ?? cur.bio, status ?? cur.status, cur.revision + 1, now];
      if (cur.revision === 0) await sql.run('INSERT INTO profiles (display_name, bio, status, revision, updated_at, member_id) VALUES (?, ?, ?, ?, ?, ?)', [...next, actor.id]);
      else if ((await sql.run('UPDATE profiles SET display_name = ?, bio = ?, status = ?, revision = ?, updated_at = ? WHERE member_id = ? AND revision = ?', [...next, actor.id, cur.revision])) !== 1) {
        throw new AppError('conflict', 'the profile changed concurrently', { hint: 'get the profile again and reapply your change' });
      }
      return this.read(sql, actor.id);
    });
  }
}
