// Owns `task reopen`: the reopen lifecycle transition.
import { taskReopen } from '../descriptors.js';
import { bind } from './bind.js';
import { runTransition } from './transition.js';

export const reopen = bind(taskReopen, (input, ctx) => runTransition('reopen', input, ctx));
