// Owns `bind` for `scheduled-message` handlers: each one receives only `api.schedules` (plus clock, signal and key).
import { binderFor } from '../../../wire/exec/action.js';
import type { ScheduleApi } from '../client.js';

export const bind = binderFor<ScheduleApi>();
