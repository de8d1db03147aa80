// Owns the daemon's `channel` client: `api.channels.*` over the server's channel and DM routes.
import { seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { ChannelDto, DmDto } from './contract.js';

export interface ChannelApi {
  /** Owner-only. */
  create(input: { id: string; name?: string }, o?: CallOptions): Promise<ChannelDto>;
  /** Owner-only. */
  addMember(channelId: string, memberId: string, o?: CallOptions): Promise<void>;
  /** Owner or admin. */
  removeMember(channelId: string, memberId: string, o?: CallOptions): Promise<{ channelId: string; memberId: string }>;
  list(o?: CallOptions): Promise<ChannelDto[]>;
  openDm(memberIds: string[], o?: CallOptions): Promise<DmDto>;
}

export function channelClient(send: Send): ChannelApi {
  return {
    create: (input, o) => send({ method: 'POST', path: '/v1/channels', body: input, opts: o }),
    addMember: async (channelId, memberId, o) => {
      await send({ method: 'POST', path: `/v1/channels/${seg(channelId, 'channelId')}/members`, body: { memberId }, opts: o });
    },
    removeMember: (channelId, memberId, o) => send({ method: 'POST', path: `/v1/channels/${seg(channelId, 'channelId')}/members/${seg(memberId, 'memberId')}/removal`, opts: o }),
    list: (o) => send({ method: 'GET', path: '/v1/channels', opts: o }),
    openDm: (memberIds, o) => send({ method: 'POST', path: '/v1/dms', body: { memberIds }, opts: o }),
  };
}
