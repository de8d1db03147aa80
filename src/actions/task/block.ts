// Owns `task block`: the block lifecycle transition.
import { taskBlock } from '../../catalog/descriptors/task.js';
import { bind } from '../types.js';
import { runTransition } from './transition.js';

export const block = bind(taskBlock, (input, ctx) => runTransition('block', input, ctx));
