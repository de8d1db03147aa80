// Owns the list of `profile` domain actions (one file per action).
import type { BoundAction } from '../../../wire/exec/action.js';
import { get } from './get.js';
import { update } from './update.js';

export const profileActions = (): BoundAction[] => [get, update] as unknown as BoundAction[];
