// Owns `bind` for `review` handlers: each one receives only `api.reviews` (plus clock, signal and key).
import { binderFor, type ActionContext } from '../../../wire/exec/action.js';
import type { ReviewApi } from '../client.js';

export const bind = binderFor<ReviewApi>();
export type ReviewContext = ActionContext<ReviewApi>;
