// Owns `bind` for `project` handlers: each one receives only `api.projects` (plus clock, signal and key).
import { binderFor, type ActionContext } from '../../../wire/exec/action.js';
import type { ProjectApi } from '../client.js';

export const bind = binderFor<ProjectApi>();
export type ProjectContext = ActionContext<ProjectApi>;
