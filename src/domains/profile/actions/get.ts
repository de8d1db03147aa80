// Owns `profile get`: one member's public profile by explicit id, or the caller's own.
import { callServer } from '../../../wire/exec/idempotency.js';
import { profileGet } from '../descriptors.js';
import { projectProfile } from '../project.js';
import { bind } from './bind.js';

export const get = bind(profileGet, async (input, ctx) => ({ data: { profile: projectProfile(await callServer(ctx, (o) => ctx.api.get(input.memberId, o))) } }));
