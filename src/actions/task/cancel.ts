// Owns `task cancel`: the cancel lifecycle transition.
import { taskCancel } from '../../catalog/descriptors/task.js';
import { bind } from '../types.js';
import { runTransition } from './transition.js';

export const cancel = bind(taskCancel, (input, ctx) => runTransition('cancel', input, ctx));
