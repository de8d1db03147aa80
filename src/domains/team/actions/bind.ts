// Owns `bind` for `team` handlers: each one receives only `api.teams` (plus clock, signal and key).
import { binderFor, type ActionContext } from '../../../wire/exec/action.js';
import type { TeamApi } from '../client.js';

export const bind = binderFor<TeamApi>();
export type TeamContext = ActionContext<TeamApi>;
