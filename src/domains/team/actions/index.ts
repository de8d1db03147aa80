// Owns the list of `team` domain actions (one file per action).
import type { BoundAction } from '../../../wire/exec/action.js';
import { addMember } from './add-member.js';
import { create } from './create.js';
import { get } from './get.js';
import { list } from './list.js';
import { members } from './members.js';
import { removeMember } from './remove-member.js';
import { update } from './update.js';

export const teamActions = (): BoundAction[] => [create, get, list, update, addMember, removeMember, members] as unknown as BoundAction[];
