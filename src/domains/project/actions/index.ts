// Owns the list of `project` domain actions (one file per action).
import type { BoundAction } from '../../../wire/exec/action.js';
import { archive } from './archive.js';
import { create } from './create.js';
import { get } from './get.js';
import { list } from './list.js';
import { unarchive } from './unarchive.js';
import { update } from './update.js';

export const projectActions = (): BoundAction[] => [create, get, list, update, archive, unarchive] as unknown as BoundAction[];
