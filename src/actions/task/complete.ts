// Owns `task complete`: the complete lifecycle transition.
import { taskComplete } from '../../catalog/descriptors/task.js';
import { bind } from '../types.js';
import { runTransition } from './transition.js';

export const complete = bind(taskComplete, (input, ctx) => runTransition('complete', input, ctx));
