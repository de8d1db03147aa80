// Owns `scheduled-message delete`: removes one of the caller's schedules and its runs.
import { callServer } from '../../../wire/exec/idempotency.js';
import { scheduleDelete } from '../descriptors.js';
import { bind } from './bind.js';

export const remove = bind(scheduleDelete, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.delete({ scheduleId: input.scheduleId }, o));
  return { data: { scheduleId: r.scheduleId, deleted: true as const }, mutation: { selectors: { scheduleId: r.scheduleId } } };
});
