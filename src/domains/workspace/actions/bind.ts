// Owns `bind` for `workspace` handlers: each one receives only `api.workspace` (plus clock, signal and key).
import { binderFor } from '../../../wire/exec/action.js';
import type { WorkspaceApi } from '../client.js';

export const bind = binderFor<WorkspaceApi>();
