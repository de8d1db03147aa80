// Owns `task reopen`: the reopen lifecycle transition.
import { taskReopen } from '../../catalog/descriptors/task.js';
import { bind } from '../types.js';
import { runTransition } from './transition.js';

export const reopen = bind(taskReopen, (input, ctx) => runTransition('reopen', input, ctx));
