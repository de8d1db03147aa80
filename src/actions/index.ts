// Owns the list of every built-in Exec action with its concrete handler (the route map is built from this and the catalog).
import { reviewActions } from './review/index.js';
import { taskActions } from './task/index.js';
import type { BoundAction } from './types.js';

export function builtinActions(): BoundAction[] {
  return [...taskActions(), ...reviewActions()];
}
