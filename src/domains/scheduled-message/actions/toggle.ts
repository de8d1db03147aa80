// Owns `scheduled-message enable` and `disable`: idempotent; enabling resumes from now.
import { callServer } from '../../../wire/exec/idempotency.js';
import { scheduleDisable, scheduleEnable } from '../descriptors.js';
import { projectSchedule } from '../project.js';
import { bind } from './bind.js';

export const enable = bind(scheduleEnable, async (input, ctx) => {
  const s = await callServer(ctx, (o) => ctx.api.enable({ scheduleId: input.scheduleId }, o));
  return { data: { schedule: projectSchedule(s) }, mutation: { selectors: { scheduleId: s.id }, revision: s.revision } };
});

export const disable = bind(scheduleDisable, async (input, ctx) => {
  const s = await callServer(ctx, (o) => ctx.api.disable({ scheduleId: input.scheduleId }, o));
  return { data: { schedule: projectSchedule(s) }, mutation: { selectors: { scheduleId: s.id }, revision: s.revision } };
});
