// Owns the `team` domain descriptors: inputs, outputs, summaries, canonical examples, risk and result policy (no handlers).
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { Cursor, HasMore, Id, Limit, NextCursor, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { Description, DisplayName, Handle } from './contract.js';
import { TeamListItem, TeamMemberView, TeamView } from './project.js';

const TeamId = Id('Team id, e.g. team17.');
const MemberId = Id('Member id, e.g. agt214.');
const TeamOut = Strict({ team: TeamView });

export const teamCreate = defineAction({
  domain: 'team',
  action: 'create',
  summary: 'Create a team with a unique handle.',
  input: Strict({ handle: Handle, displayName: DisplayName, description: Type.Optional(Description), ...mutationSelectors }),
  output: TeamOut,
  example: { handle: 'web', displayName: 'Web team' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const teamGet = defineAction({
  domain: 'team',
  action: 'get',
  summary: 'Get one team by id.',
  input: Strict({ teamId: TeamId }),
  output: TeamOut,
  example: { teamId: 'team17' },
  risk: 'read',
  resultPolicy: 'narrow',
});

export const teamList = defineAction({
  domain: 'team',
  action: 'list',
  summary: 'List teams by display name, then handle.',
  input: Strict({ limit: Limit, cursor: Cursor }),
  output: Strict({ teams: Type.Array(TeamListItem), hasMore: HasMore, nextCursor: NextCursor }),
  example: { limit: 20 },
  risk: 'read',
  resultPolicy: 'cursor',
});

export const teamUpdate = defineAction({
  domain: 'team',
  action: 'update',
  summary: 'Edit handle, display name or description (creator or owner); conflict if stale.',
  input: Strict({
    teamId: TeamId,
    expectedRevision: Type.Integer({ minimum: 1, description: 'The revision you last read.' }),
    handle: Type.Optional(Handle),
    displayName: Type.Optional(DisplayName),
    description: Type.Optional(Description),
    ...mutationSelectors,
  }),
  output: TeamOut,
  example: { teamId: 'team17', expectedRevision: 1, displayName: 'Web platform' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const teamAddMember = defineAction({
  domain: 'team',
  action: 'add-member',
  summary: 'Add a workspace member to a team (creator or owner).',
  input: Strict({ teamId: TeamId, memberId: MemberId, ...mutationSelectors }),
  output: Strict({ teamId: Type.String(), member: TeamMemberView }),
  example: { teamId: 'team17', memberId: 'agt214' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const teamRemoveMember = defineAction({
  domain: 'team',
  action: 'remove-member',
  summary: 'Remove a member from a team (creator or owner).',
  input: Strict({ teamId: TeamId, memberId: MemberId, ...mutationSelectors }),
  output: Strict({ teamId: Type.String(), memberId: Type.String(), removed: Type.Boolean() }),
  example: { teamId: 'team17', memberId: 'agt214' },
  risk: 'destructive',
  resultPolicy: 'mutation',
});

export const teamMembers = defineAction({
  domain: 'team',
  action: 'members',
  summary: 'List the members of a team by member id.',
  input: Strict({ teamId: TeamId, limit: Limit, cursor: Cursor }),
  output: Strict({ members: Type.Array(TeamMemberView), hasMore: HasMore, nextCursor: NextCursor }),
  example: { teamId: 'team17' },
  risk: 'read',
  resultPolicy: 'cursor',
});

export const TEAM_DESCRIPTORS = [teamCreate, teamGet, teamList, teamUpdate, teamAddMember, teamRemoveMember, teamMembers] as const;
