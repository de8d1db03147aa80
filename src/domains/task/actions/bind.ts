// Owns `bind` for `task` handlers: each one receives only `api.tasks` (plus clock, signal and key).
import { binderFor, type ActionContext } from '../../../wire/exec/action.js';
import type { TaskApi } from '../client.js';

export const bind = binderFor<TaskApi>();
export type TaskContext = ActionContext<TaskApi>;
