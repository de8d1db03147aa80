// Owns channels, channel membership and DMs (fixed member sets).
import { AppError } from '../../shared/errors.js';
import { ID_RE, isOwner, iso, requireAdmin, type Actor, type DomainDeps } from '../../server/context.js';
import { memberById } from '../member/service.js';
import { checkText, clipText } from '../../shared/bounds.js';
import { CHANNEL_NAME, CHANNELS_MAX, DM_MEMBERS_MAX, DMS_OPENED_MAX, type ChannelDto, type DmDto } from './contract.js';
import { CHANNEL_ID_RE } from '../../shared/target.js';

interface ChannelRow {
  id: string;
  name: string;
  created_at: number;
}

const channelDto = (r: ChannelRow): ChannelDto => ({ id: r.id, name: clipText(r.name, CHANNEL_NAME.bytes), createdAt: iso(r.created_at) });

export class Channels {
  constructor(private readonly deps: DomainDeps) {}

  /** Owner-only; the owner becomes a member of the new channel. */
  async create(actor: Actor, input: { id: string; name?: string }): Promise<ChannelDto> {
    requireAdmin(actor, 'create channels');
    if (typeof input.id !== 'string' || !CHANNEL_ID_RE.test(input.id)) {
      throw new AppError('validation_failed', 'channel id must match ^[a-z0-9][a-z0-9-]{0,62}$');
    }
    const name = input.name === undefined ? input.id : checkText(input.name, CHANNEL_NAME);
    const row: ChannelRow = { id: input.id, name, created_at: this.deps.clock.now() };
    return this.deps.store.tx(async (sql) => {
      if (await sql.get('SELECT 1 AS x FROM channels WHERE id = ?', [row.id])) throw new AppError('conflict', `channel ${row.id} already exists`);
      if (Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM channels'))?.n ?? 0) >= CHANNELS_MAX) throw new AppError('validation_failed', `the workspace holds at most ${CHANNELS_MAX} channels`);
      await sql.run('INSERT INTO channels (id, name, created_at) VALUES (?, ?, ?)', [row.id, row.name, row.created_at]);
      await sql.run('INSERT INTO channel_members (channel_id, member_id) VALUES (?, ?)', [row.id, actor.id]);
      return channelDto(row);
    });
  }

  /** Owner-only; adding an existing member is a no-op. */
  async addMember(actor: Actor, { channelId, memberId }: { channelId: string; memberId: string }): Promise<{ channelId: string; memberId: string }> {
    requireAdmin(actor, 'add channel members');
    return this.deps.store.tx(async (sql) => {
      if (!(await sql.get('SELECT 1 AS x FROM channels WHERE id = ?', [channelId]))) throw new AppError('not_found', `channel ${channelId} not found`);
      if (typeof memberId !== 'string' || !(await memberById(sql, memberId))) throw new AppError('not_found', 'member not found');
      await sql.run('INSERT INTO channel_members (channel_id, member_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [channelId, memberId]);
      return { channelId, memberId };
    });
  }

  /** Owner or admin; a member not in the channel is not_found (nothing changes). The channel's messages stay. */
  async removeMember(actor: Actor, { channelId, memberId }: { channelId: string; memberId: string }): Promise<{ channelId: string; memberId: string }> {
    requireAdmin(actor, 'remove channel members');
    return this.deps.store.tx(async (sql) => {
      if (!(await sql.get('SELECT 1 AS x FROM channels WHERE id = ?', [channelId]))) throw new AppError('not_found', `channel ${channelId} not found`);
      if (!(await sql.run('DELETE FROM channel_members WHERE channel_id = ? AND member_id = ?', [channelId, memberId]))) throw new AppError('not_found', `member ${memberId} is not in channel ${channelId}`);
      return { channelId, memberId };
    });
  }

  /** Agents see the channels they are in; the owner sees all. Ordered by id. */
  async list(actor: Actor): Promise<ChannelDto[]> {
    const rows = isOwner(actor)
      ? await this.deps.store.all<ChannelRow>('SELECT id, name, created_at FROM channels ORDER BY id ASC')
      : await this.deps.store.all<ChannelRow>(
          'SELECT c.id, c.name, c.created_at FROM channels c JOIN channel_members m ON m.channel_id = c.id WHERE m.member_id = ? ORDER BY c.id ASC',
          [actor.id],
        );
    return rows.map(channelDto);
  }

  /** Opens (or returns) the DM whose member set is exactly the caller plus memberIds; the set never changes. */
  async openDm(actor: Actor, { memberIds }: { memberIds: string[] }): Promise<DmDto> {
    if (!Array.isArray(memberIds) || memberIds.length < 1 || memberIds.length > DM_MEMBERS_MAX || !memberIds.every((m) => typeof m === 'string' && ID_RE.test(m))) {
      throw new AppError('validation_failed', 'memberIds must list 1 to 16 member ids');
    }
    const set = [...new Set([actor.id, ...memberIds])].sort();
    if (set.length < 2) throw new AppError('validation_failed', 'a DM needs at least one other member');
    const key = set.join(',');
    return this.deps.store.tx(async (sql) => {
      for (const m of set) if (!(await memberById(sql, m))) throw new AppError('not_found', `member ${m} not found`);
      const existing = await sql.get<{ id: string }>('SELECT id FROM dms WHERE member_key = ?', [key]);
      if (existing) return { id: existing.id, memberIds: set };
      // Bounded per opener, so no member can grow the DM tables without limit.
      if (Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM dms WHERE created_by = ?', [actor.id]))?.n ?? 0) >= DMS_OPENED_MAX) {
        throw new AppError('validation_failed', `a member opens at most ${DMS_OPENED_MAX} DMs`);
      }
      const id = await this.deps.ids.next(sql, 'dm');
      await sql.run('INSERT INTO dms (id, member_key, created_at, created_by) VALUES (?, ?, ?, ?)', [id, key, this.deps.clock.now(), actor.id]);
      for (const m of set) await sql.run('INSERT INTO dm_members (dm_id, member_id) VALUES (?, ?)', [id, m]);
      return { id, memberIds: set };
    });
  }
}
