// Owns the list of `approval` domain actions (one file per action; approve and reject share decide.ts).
import type { BoundAction } from '../../../wire/exec/action.js';
import { cancel } from './cancel.js';
import { approve, reject } from './decide.js';
import { get } from './get.js';
import { list } from './list.js';
import { request } from './request.js';

export const approvalActions = (): BoundAction[] => [request, get, list, approve, reject, cancel] as unknown as BoundAction[];
