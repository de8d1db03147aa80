// Owns `bind` for `profile` handlers: each one receives only `api.profiles` (plus clock, signal and key).
import { binderFor } from '../../../wire/exec/action.js';
import type { ProfileApi } from '../client.js';

export const bind = binderFor<ProfileApi>();
