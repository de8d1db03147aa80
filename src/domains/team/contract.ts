// Owns the `team` domain contract: Team and TeamMember DTOs (TypeBox), the handle grammar, request bodies, every bound and who may do what.
import { Type, type Static } from '@sinclair/typebox';
import { MemberRef, Strict, Timestamp } from '../../catalog/schemas.js';
import { ID_PATTERN } from '../../shared/ids.js';
import type { Page } from '../../shared/page.js';

/** A handle is unique per workspace ignoring case (`Core` and `core` are one handle). */
export const HANDLE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$';
export const DISPLAY_NAME_MAX = 100;
export const DESCRIPTION_MAX = 2000;
/** Members per team: bounds the aggregate a team is. */
export const MAX_MEMBERS = 1000;

/**
 * Who may do what: every workspace member reads (get, list, members) and creates teams; only the team's creator and
 * the Human owner update it and add or remove members (anyone else: denied).
 */
export const Team = Strict({
  id: Type.String(),
  handle: Type.String(),
  displayName: Type.String(),
  description: Type.String(),
  createdBy: Type.String(),
  /** createdBy's display name and kind, read with the row (one batched lookup per page). */
  creator: MemberRef,
  revision: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type TeamDto = Static<typeof Team>;

export const TeamMember = Strict({
  memberId: Type.String(),
  name: Type.String(),
  kind: Type.Union([Type.Literal('human'), Type.Literal('agent')]),
  addedAt: Timestamp,
});
export type TeamMemberDto = Static<typeof TeamMember>;

export interface TeamPage extends Page {
  teams: TeamDto[];
}
export interface TeamMemberPage extends Page {
  members: TeamMemberDto[];
}

const strict = { additionalProperties: false } as const;
export const Handle = Type.String({ pattern: HANDLE_PATTERN, maxLength: 40, description: 'Unique per workspace, any case; letters, digits, _ and -.' });
export const DisplayName = Type.String({ minLength: 1, maxLength: DISPLAY_NAME_MAX });
export const Description = Type.String({ maxLength: DESCRIPTION_MAX });
const MemberId = Type.String({ pattern: ID_PATTERN });
export const CreateTeamBody = Type.Object({ handle: Handle, displayName: DisplayName, description: Type.Optional(Description) }, strict);
export const UpdateTeamBody = Type.Object({ expectedRevision: Type.Integer({ minimum: 1 }), handle: Type.Optional(Handle), displayName: Type.Optional(DisplayName), description: Type.Optional(Description) }, strict);
export const TeamMemberBody = Type.Object({ memberId: MemberId }, strict);
