// Owns the `channel` server routes: channels (owner or admin creates, adds and removes members), the caller's channel list, DMs.
import type { DomainRoute } from '../../server/http/route.js';
import { AddChannelMemberBody, CreateChannelBody, OpenDmBody } from './contract.js';
import type { Channels } from './service.js';
import { CHANNEL_ID_RE } from '../../shared/target.js';

export const ROUTES: readonly DomainRoute<Channels>[] = [
  { method: 'GET', path: '/v1/channels', handle: (c, s) => s.listChannels(c.actor) },
  { method: 'POST', path: '/v1/channels', body: CreateChannelBody, handle: (c, s) => s.createChannel(c.actor, c.body) },
  {
    method: 'POST',
    path: '/v1/channels/{channelId}/members',
    body: AddChannelMemberBody,
    paramPatterns: { channelId: CHANNEL_ID_RE },
    handle: async (c, s) => {
      await s.addChannelMember(c.actor, c.params.channelId!, c.body.memberId);
      return { channelId: c.params.channelId, memberId: c.body.memberId };
    },
  },
  {
    method: 'POST',
    path: '/v1/channels/{channelId}/members/{memberId}/removal',
    paramPatterns: { channelId: CHANNEL_ID_RE },
    handle: (c, s) => s.removeChannelMember(c.actor, c.params.channelId!, c.params.memberId!),
  },
  { method: 'POST', path: '/v1/dms', body: OpenDmBody, handle: (c, s) => s.openDm(c.actor, c.body.memberIds) },
];
