// Owns `task complete`: the complete lifecycle transition.
import { taskComplete } from '../descriptors.js';
import { bind } from './bind.js';
import { runTransition } from './transition.js';

export const complete = bind(taskComplete, (input, ctx) => runTransition('complete', input, ctx));
