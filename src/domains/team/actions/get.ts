// Owns `team get`: reads one team by its explicit id.
import { callServer } from '../../../wire/exec/idempotency.js';
import { teamGet } from '../descriptors.js';
import { projectTeam } from '../project.js';
import { bind } from './bind.js';

export const get = bind(teamGet, async (input, ctx) => ({ data: { team: projectTeam(await callServer(ctx, (o) => ctx.api.get(input.teamId, o))) } }));
