// Owns the owner CLI's channels and DMs: members named by name (the server's name rule), channel create/list/add/remove, DM open, dm:NAME targets.
import { nameKey } from '../domains/member/name-key.js';
import type { MemberDto } from '../domains/member/contract.js';
import type { ChannelDto } from '../domains/channel/contract.js';
import { CHANNEL_ID_RE } from '../shared/target.js';
import type { ServerApi } from '../server-client/api.js';
import { AppError } from '../shared/errors.js';
import { COMPACT_ID_RE, LEGACY_SORTABLE_ID_RE, NUMBERED_ID_RE } from '../shared/ids.js';

export type OwnerChannel = ChannelDto & { target: string };
export interface OwnerDm {
  id: string;
  target: string;
  members: Array<{ id: string; name: string }>;
}

/** A DM's own id (dm231, or an older dm_… form): `dm:<that>` is exact; anything else after `dm:` names members. */
export function isDmId(s: string): boolean {
  return s.startsWith('dm') && [NUMBERED_ID_RE, COMPACT_ID_RE, LEGACY_SORTABLE_ID_RE].some((re) => re.test(s));
}

/** A channel named as `ops`, `#ops` or `channel:ops`; the slug rule itself is the server's (CHANNEL_ID_RE). */
function slug(channel: string): string {
  const s = channel.replace(/^(channel:|#)/, '');
  if (!CHANNEL_ID_RE.test(s)) throw new AppError('validation_failed', `channel id ${JSON.stringify(channel)} must be a slug: lowercase letters, digits and -, e.g. ops`);
  return s;
}

export class OwnerChannels {
  constructor(private readonly api: () => ServerApi) {}

  /** Every name resolved to one current member: by id, or by name compared as the server compares names (nameKey). */
  private async members(names: readonly string[]): Promise<MemberDto[]> {
    const all = await this.api().members.list();
    return names.map((n) => {
      const key = nameKey(n);
      const m = all.find((x) => x.id === n) ?? all.find((x) => nameKey(x.name) === key);
      if (!m) throw new AppError('not_found', `no member named ${JSON.stringify(n)} (agentteam member ls lists them)`);
      return m;
    });
  }

  async list(): Promise<OwnerChannel[]> {
    return (await this.api().channels.list()).map((c) => ({ ...c, target: `channel:${c.id}` }));
  }

  async create(input: { id: string; name?: string }): Promise<OwnerChannel> {
    const c = await this.api().channels.create({ ...input, id: slug(input.id) });
    return { ...c, target: `channel:${c.id}` };
  }

  async addMember(channel: string, member: string): Promise<{ channel: string; member: { id: string; name: string } }> {
    const id = slug(channel);
    const [m] = await this.members([member]);
    await this.api().channels.addMember({ channelId: id, memberId: m!.id });
    return { channel: `channel:${id}`, member: { id: m!.id, name: m!.name } };
  }

  async removeMember(channel: string, member: string): Promise<{ channel: string; member: { id: string; name: string } }> {
    const id = slug(channel);
    const [m] = await this.members([member]);
    await this.api().channels.removeMember({ channelId: id, memberId: m!.id });
    return { channel: `channel:${id}`, member: { id: m!.id, name: m!.name } };
  }

  /** Opens (or returns) the DM of the owner and these members; the server fixes the member set. */
  async openDm(names: readonly string[]): Promise<OwnerDm> {
    const ms = await this.members(names);
    const dm = await this.api().channels.openDm({ memberIds: [...new Set(ms.map((m) => m.id))] });
    const all = await this.api().members.list();
    return { id: dm.id, target: `dm:${dm.id}`, members: dm.memberIds.map((id) => ({ id, name: all.find((m) => m.id === id)?.name ?? id })) };
  }

  /** `dm:NAME[,NAME…]` becomes the DM with those members (opened if needed); every other target is returned as given. */
  async resolveTarget(target: string): Promise<{ target: string }> {
    if (!target.startsWith('dm:') || isDmId(target.slice(3))) return { target };
    const names = target.slice(3).split(',').map((n) => n.trim());
    if (names.some((n) => n === '')) throw new AppError('validation_failed', 'dm: takes a DM id or member names separated by commas, e.g. dm:demo');
    return { target: (await this.openDm(names)).target };
  }
}
