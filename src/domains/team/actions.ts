// Owns the `team` Exec actions, one declaration each (help, input, output, example, risk, result policy, over-budget
// guidance, and the server call with its projection): the descriptors, inventory rows and handlers derive from these.
import { Type } from '@sinclair/typebox';
import { Cursor, HasMore, Id, Limit, NextCursor, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { pageFields } from '../../wire/exec/action.js';
import { applied, execCall, execList, type DeclaredAction } from '../../wire/exec/declare.js';
import { Description, DisplayName, Handle, TEAM, type TeamDto } from './contract.js';
import { TeamListItem, TeamMemberView, TeamView, projectMember, projectTeam, projectTeamListItem } from './project.js';

const TeamId = Id('Team id, e.g. team17.');
const MemberId = Id('Member id, e.g. agt214.');
const TeamOut = Strict({ team: TeamView });
const readBack = applied('agentteam exec team get');
const readMembers = applied('agentteam exec team members');
const team = (t: TeamDto) => ({ team: projectTeam(t) });
const changed = (t: TeamDto) => ({ selectors: { teamId: t.id }, revision: t.revision });

const create = execCall({
  domain: 'team',
  action: 'create',
  summary: 'Create a team with a unique handle.',
  input: Strict({ handle: Handle, displayName: DisplayName, description: Type.Optional(Description), ...mutationSelectors }),
  output: TeamOut,
  example: { handle: 'web', displayName: 'Web team' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: TEAM.create,
  result: team,
  facts: changed,
});

const get = execCall({
  domain: 'team',
  action: 'get',
  summary: 'Get one team by id.',
  input: Strict({ teamId: TeamId }),
  output: TeamOut,
  example: { teamId: 'team17' },
  risk: 'read',
  resultPolicy: 'narrow',
  overBudget: { hint: 'One team is always small; check the teamId.', next: 'agentteam exec team get' },
  call: TEAM.get,
  result: team,
});

const list = execList({
  domain: 'team',
  action: 'list',
  summary: 'List teams by display name, then handle.',
  items: 'teams',
  item: TeamListItem,
  example: { limit: 20 },
  overBudget: { hint: 'Request a smaller page with the same cursor.', next: 'agentteam exec team list' },
  call: TEAM.list,
  project: projectTeamListItem,
});

const update = execCall({
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
  overBudget: readBack,
  call: TEAM.update,
  result: team,
  facts: changed,
});

const addMember = execCall({
  domain: 'team',
  action: 'add-member',
  summary: 'Add a workspace member to a team (creator or owner).',
  input: Strict({ teamId: TeamId, memberId: MemberId, ...mutationSelectors }),
  output: Strict({ teamId: Type.String(), member: TeamMemberView }),
  example: { teamId: 'team17', memberId: 'agt214' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readMembers,
  call: TEAM.addMember,
  result: (r) => ({ teamId: r.teamId, member: projectMember(r.member) }),
  facts: (r) => ({ selectors: { teamId: r.teamId } }),
});

const removeMember = execCall({
  domain: 'team',
  action: 'remove-member',
  summary: 'Remove a member from a team (creator or owner).',
  input: Strict({ teamId: TeamId, memberId: MemberId, ...mutationSelectors }),
  output: Strict({ teamId: Type.String(), memberId: Type.String(), removed: Type.Boolean() }),
  example: { teamId: 'team17', memberId: 'agt214' },
  risk: 'destructive',
  resultPolicy: 'mutation',
  overBudget: readMembers,
  call: TEAM.removeMember,
  result: (r) => ({ teamId: r.teamId, memberId: r.memberId, removed: r.removed }),
  facts: (r) => ({ selectors: { teamId: r.teamId } }),
});

// Not execList: the team is a top-level input beside the page fields.
const members = execCall({
  domain: 'team',
  action: 'members',
  summary: 'List the members of a team by member id.',
  input: Strict({ teamId: TeamId, limit: Limit, cursor: Cursor }),
  output: Strict({ members: Type.Array(TeamMemberView), hasMore: HasMore, nextCursor: NextCursor }),
  example: { teamId: 'team17' },
  risk: 'read',
  resultPolicy: 'cursor',
  overBudget: { hint: 'Request a smaller page with the same team and cursor.', next: 'agentteam exec team members' },
  call: TEAM.members,
  result: (page) => ({ members: page.members.map(projectMember), ...pageFields(page) }),
});

/** The team actions in help order. */
export const TEAM_ACTIONS: readonly DeclaredAction<any, any>[] = [create, get, list, update, addMember, removeMember, members];
