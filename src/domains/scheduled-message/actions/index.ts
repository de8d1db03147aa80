// Owns the list of `scheduled-message` domain actions (one file per action; enable and disable share toggle.ts).
import type { BoundAction } from '../../../wire/exec/action.js';
import { create } from './create.js';
import { remove } from './delete.js';
import { get } from './get.js';
import { list } from './list.js';
import { runs } from './runs.js';
import { disable, enable } from './toggle.js';
import { update } from './update.js';

export const scheduleActions = (): BoundAction[] => [create, get, list, update, enable, disable, remove, runs] as unknown as BoundAction[];
