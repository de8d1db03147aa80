// Owns `task start`: the start lifecycle transition.
import { taskStart } from '../descriptors.js';
import { bind } from './bind.js';
import { runTransition } from './transition.js';

export const start = bind(taskStart, (input, ctx) => runTransition('start', input, ctx));
