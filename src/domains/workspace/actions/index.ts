// Owns the list of `workspace` domain actions (one file per action).
import type { BoundAction } from '../../../wire/exec/action.js';
import { get } from './get.js';
import { members } from './members.js';

export const workspaceActions = (): BoundAction[] => [get, members] as unknown as BoundAction[];
