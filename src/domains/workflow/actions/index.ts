// Owns the list of `workflow` domain actions: one per resource of the operation matrix.
import type { BoundAction } from '../../../wire/exec/action.js';
import { plan } from './plan.js';
import { run } from './run.js';
import { step } from './step.js';
import { trigger } from './trigger.js';

export const workflowActions = (): BoundAction[] => [plan, trigger, run, step] as unknown as BoundAction[];
