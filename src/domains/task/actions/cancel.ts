// Owns `task cancel`: the cancel lifecycle transition.
import { taskCancel } from '../descriptors.js';
import { bind } from './bind.js';
import { runTransition } from './transition.js';

export const cancel = bind(taskCancel, (input, ctx) => runTransition('cancel', input, ctx));
