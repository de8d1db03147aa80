// Owns `task start`: the start lifecycle transition.
import { taskStart } from '../../catalog/descriptors/task.js';
import { bind } from '../types.js';
import { runTransition } from './transition.js';

export const start = bind(taskStart, (input, ctx) => runTransition('start', input, ctx));
