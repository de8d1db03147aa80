// Owns `scheduled-message get`: reads one of the caller's schedules by its explicit id.
import { callServer } from '../../../wire/exec/idempotency.js';
import { scheduleGet } from '../descriptors.js';
import { projectSchedule } from '../project.js';
import { bind } from './bind.js';

export const get = bind(scheduleGet, async (input, ctx) => ({ data: { schedule: projectSchedule(await callServer(ctx, (o) => ctx.api.get(input.scheduleId, o))) } }));
