// Owns the `profile` domain descriptors: inputs, outputs, summaries, canonical examples, risk and result policy (no handlers).
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { Id, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { Bio, DisplayName, Status } from './contract.js';
import { ProfileView } from './project.js';

const ProfileOut = Strict({ profile: ProfileView });

export const profileGet = defineAction({
  domain: 'profile',
  action: 'get',
  summary: "Get a member's public profile (default: yours).",
  input: Strict({ memberId: Type.Optional(Id('Member id, e.g. agt214; omit for your own.')) }),
  output: ProfileOut,
  example: {},
  risk: 'read',
  resultPolicy: 'narrow',
});

export const profileUpdate = defineAction({
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
});

export const PROFILE_DESCRIPTORS = [profileGet, profileUpdate] as const;
