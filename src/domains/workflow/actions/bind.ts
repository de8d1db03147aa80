// Owns `bind` for `workflow` handlers: each one receives only `api.workflows` (plus clock, signal and key).
import { binderFor } from '../../../wire/exec/action.js';
import type { WorkflowApi } from '../client.js';

export const bind = binderFor<WorkflowApi>();
