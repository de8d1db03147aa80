// Owns the list of `review` domain actions (one file per action).
import type { BoundAction } from '../../../wire/exec/action.js';
import { add } from './add.js';
import { get } from './get.js';
import { list } from './list.js';
import { reopen } from './reopen.js';
import { resolve } from './resolve.js';

export const reviewActions = (): BoundAction[] => [add, get, list, resolve, reopen] as unknown as BoundAction[];
