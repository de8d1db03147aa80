// Owns the `channel` domain contract: channel and DM DTOs, request bodies and their bounds.
import { Type } from '@sinclair/typebox';
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

const strict = { additionalProperties: false } as const;
const Id = Type.String({ pattern: ID_PATTERN });
export const CreateChannelBody = Type.Object({ id: Type.String({ minLength: 1, maxLength: 63 }), name: Type.Optional(Type.String({ minLength: 1, maxLength: CHANNEL_NAME_MAX })) }, strict);
export const AddChannelMemberBody = Type.Object({ memberId: Id }, strict);
export const OpenDmBody = Type.Object({ memberIds: Type.Array(Id, { minItems: 1, maxItems: DM_MEMBERS_MAX }) }, strict);
