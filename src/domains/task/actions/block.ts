// Owns `task block`: the block lifecycle transition.
import { taskBlock } from '../descriptors.js';
import { bind } from './bind.js';
import { runTransition } from './transition.js';

export const block = bind(taskBlock, (input, ctx) => runTransition('block', input, ctx));
