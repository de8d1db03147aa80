// Owns the `profile` Exec actions, one declaration each (help, input, output, example, risk, result policy, over-budget
// guidance, handler): without memberId each reads or edits the caller's own profile (its own server path).
import { Type } from '@sinclair/typebox';
import { Id, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { applied, callEndpoint, execAction, type DeclaredAction } from '../../wire/exec/declare.js';
import { Bio, DisplayName, PROFILE, Status } from './contract.js';
import { ProfileView, projectProfile } from './project.js';

const ProfileOut = Strict({ profile: ProfileView });

const get = execAction({
  domain: 'profile',
  action: 'get',
  summary: "Get a member's public profile (default: yours).",
  input: Strict({ memberId: Type.Optional(Id('Member id, e.g. agt214; omit for your own.')) }),
  output: ProfileOut,
  example: {},
  risk: 'read',
  resultPolicy: 'narrow',
  overBudget: { hint: 'One profile is always small; check the memberId.', next: 'agentteam exec profile get' },
  handle: async (i, ctx) => {
    const p = await (i.memberId === undefined ? callEndpoint(ctx, PROFILE.mine, {}) : callEndpoint(ctx, PROFILE.get, { memberId: i.memberId }));
    return { data: { profile: projectProfile(p) } };
  },
});

const update = execAction({
  domain: 'profile',
  action: 'update',
  summary: 'Edit your own display name, bio or status.',
  input: Strict({
    memberId: Type.Optional(Id('Must be your own member id if given.')),
    displayName: Type.Optional(DisplayName),
    bio: Type.Optional(Bio),
    status: Type.Optional(Status),
    ...mutationSelectors,
  }),
  output: ProfileOut,
  example: { status: 'on release duty' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: applied('agentteam exec profile get'),
  // Naming another member is denied by the server.
  handle: async ({ memberId, displayName, bio, status }, ctx) => {
    const change = { displayName, bio, status };
    const p = await (memberId === undefined ? callEndpoint(ctx, PROFILE.updateMine, change) : callEndpoint(ctx, PROFILE.update, { memberId, ...change }));
    return { data: { profile: projectProfile(p) }, mutation: { selectors: { memberId: p.memberId }, revision: p.revision } };
  },
});

/** The profile actions in help order. */
export const PROFILE_ACTIONS: readonly DeclaredAction<any, any>[] = [get, update];
