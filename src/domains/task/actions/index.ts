// Owns the list of `task` domain actions (one file per action).
import type { BoundAction } from '../../../wire/exec/action.js';
import { assign } from './assign.js';
import { block } from './block.js';
import { cancel } from './cancel.js';
import { comment } from './comment.js';
import { complete } from './complete.js';
import { create } from './create.js';
import { get } from './get.js';
import { list } from './list.js';
import { reopen } from './reopen.js';
import { start } from './start.js';
import { update } from './update.js';

export const taskActions = (): BoundAction[] => [create, get, list, update, assign, start, block, complete, reopen, cancel, comment] as unknown as BoundAction[];
