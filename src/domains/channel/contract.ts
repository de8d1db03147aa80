// Owns the `channel` domain contract: channel and DM DTOs, their bounds, and the channel server calls.
import { Type } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import { ID_PATTERN } from '../../shared/ids.js';
import type { TextBound } from '../../shared/bounds.js';

/** A channel's display name in characters and serialized JSON bytes (the one place; server and daemon check it). */
export const CHANNEL_NAME = { field: 'name', min: 1, chars: 100, bytes: 400 } as const satisfies TextBound;
export const CHANNEL_NAME_MAX = CHANNEL_NAME.chars;
export const DM_MEMBERS_MAX = 16;
/** Channels a workspace holds at most: the channel list stays bounded. */
export const CHANNELS_MAX = 1_000;
/** DMs one member may open (one with every other member of a full workspace): what a member adds stays bounded. */
export const DMS_OPENED_MAX = 10_000;

export interface ChannelDto {
  id: string; // slug, unique per workspace
  name: string;
  createdAt: string;
}

export interface DmDto {
  id: string;
  memberIds: string[];
}

const Id = Type.String({ pattern: ID_PATTERN });
const Membership = Type.Unsafe<{ channelId: string; memberId: string }>();

/** The channel server calls: each one is a route on the server and a method of the daemon's `api.channels`. */
export const CHANNEL = endpoints({
  /** Agents see the channels they are in; the owner sees all. Ordered by id. */
  list: { method: 'GET', path: '/v1/channels', output: Type.Unsafe<ChannelDto[]>() },
  /** Owner or admin. */
  create: { method: 'POST', path: '/v1/channels', body: Strict({ id: Type.String({ minLength: 1, maxLength: 63 }), name: Type.Optional(Type.String({ minLength: 1, maxLength: CHANNEL_NAME_MAX })) }), output: Type.Unsafe<ChannelDto>() },
  /** Owner or admin; adding an existing member is a no-op. */
  addMember: { method: 'POST', path: '/v1/channels/{channelId}/members', body: Strict({ memberId: Id }), output: Membership },
  /** Owner or admin. */
  removeMember: { method: 'POST', path: '/v1/channels/{channelId}/members/{memberId}/removal', output: Membership },
  openDm: { method: 'POST', path: '/v1/dms', body: Strict({ memberIds: Type.Array(Id, { minItems: 1, maxItems: DM_MEMBERS_MAX }) }), output: Type.Unsafe<DmDto>() },
});
