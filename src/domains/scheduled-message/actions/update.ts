// Owns `scheduled-message update`: changes target, content or timing of one of the caller's schedules.
import { callServer } from '../../../wire/exec/idempotency.js';
import { scheduleUpdate } from '../descriptors.js';
import { projectSchedule } from '../project.js';
import { bind } from './bind.js';
import { timingFields } from './fields.js';

export const update = bind(scheduleUpdate, async (input, ctx) => {
  const body = { scheduleId: input.scheduleId, ...(input.target !== undefined ? { target: input.target } : {}), ...(input.content !== undefined ? { content: input.content } : {}), ...timingFields(input) };
  const s = await callServer(ctx, (o) => ctx.api.update(body, o));
  return { data: { schedule: projectSchedule(s) }, mutation: { selectors: { scheduleId: s.id }, revision: s.revision } };
});
