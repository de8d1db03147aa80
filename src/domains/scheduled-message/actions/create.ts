// Owns `scheduled-message create`: a one-shot (`at`) or repeating (`cron` in `timeZone`) message on an exact target.
import { callServer } from '../../../wire/exec/idempotency.js';
import { scheduleCreate } from '../descriptors.js';
import { projectSchedule } from '../project.js';
import { bind } from './bind.js';
import { timingFields } from './fields.js';

export const create = bind(scheduleCreate, async (input, ctx) => {
  const s = await callServer(ctx, (o) => ctx.api.create({ target: input.target, content: input.content, ...timingFields(input) }, o));
  return { data: { schedule: projectSchedule(s) }, mutation: { selectors: { scheduleId: s.id }, revision: s.revision } };
});
