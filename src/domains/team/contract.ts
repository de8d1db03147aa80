// Owns the `team` domain contract: Team and TeamMember DTOs (TypeBox), the handle grammar, every bound, who may do what, and its server calls.
import { Type, type Static } from '@sinclair/typebox';
import { MemberRef, PageOf, Strict, Timestamp } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import { ID_PATTERN } from '../../shared/ids.js';
import type { ClientOf } from '../../server-client/derive.js';

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

export const TeamPage = PageOf('teams', Team);
export type TeamPage = Static<typeof TeamPage>;
export const TeamMemberPage = PageOf('members', TeamMember);
export type TeamMemberPage = Static<typeof TeamMemberPage>;

export const Handle = Type.String({ pattern: HANDLE_PATTERN, maxLength: 40, description: 'Unique per workspace, any case; letters, digits, _ and -.' });
export const DisplayName = Type.String({ minLength: 1, maxLength: DISPLAY_NAME_MAX });
export const Description = Type.String({ maxLength: DESCRIPTION_MAX });
const MemberId = Type.String({ pattern: ID_PATTERN });
const PageQuery = Type.Object({ limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) });

/** The team server calls: each one is a route on the server and a method of the daemon's `api.teams`. */
export const TEAM = endpoints({
  create: { method: 'POST', path: '/v1/teams', body: Strict({ handle: Handle, displayName: DisplayName, description: Type.Optional(Description) }), output: Team },
  /** Ordered displayName ASC, handle ASC, teamId ASC. */
  list: { method: 'GET', path: '/v1/teams', query: PageQuery, output: TeamPage },
  get: { method: 'GET', path: '/v1/teams/{teamId}', output: Team },
  /** Revision-checked: a stale expectedRevision is a conflict. */
  update: {
    method: 'PATCH',
    path: '/v1/teams/{teamId}',
    body: Strict({ expectedRevision: Type.Integer({ minimum: 1 }), handle: Type.Optional(Handle), displayName: Type.Optional(DisplayName), description: Type.Optional(Description) }),
    output: Team,
  },
  addMember: { method: 'POST', path: '/v1/teams/{teamId}/members', body: Strict({ memberId: MemberId }), output: Strict({ teamId: Type.String(), member: TeamMember }) },
  removeMember: { method: 'POST', path: '/v1/teams/{teamId}/members/{memberId}/remove', output: Strict({ teamId: Type.String(), memberId: Type.String(), removed: Type.Boolean() }) },
  /** Ordered memberId ASC. */
  members: { method: 'GET', path: '/v1/teams/{teamId}/members', query: PageQuery, output: TeamMemberPage },
});
export type TeamApi = ClientOf<typeof TEAM>;
