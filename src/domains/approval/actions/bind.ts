// Owns `bind` for `approval` handlers: each one receives only `api.approvals` (plus clock, signal and key).
import { binderFor } from '../../../wire/exec/action.js';
import type { ApprovalApi } from '../client.js';

export const bind = binderFor<ApprovalApi>();
