// Owns the `agent` domain module: a daemon-local Exec domain (descriptors, inventory rows, handlers); nothing on the server.
import type { InventoryRow } from '../../catalog/types.js';
import { defineDomain } from '../module.js';
import rows from './inventory.json' with { type: 'json' };
import { agentActions } from './actions.js';
import { AGENT_DESCRIPTORS } from './descriptors.js';

export const agentDomain = defineDomain({
  name: 'agent',
  key: 'agents',
  local: true,
  summary: 'Teammate agents on this daemon.',
  descriptors: AGENT_DESCRIPTORS,
  inventory: rows as InventoryRow[],
  actions: agentActions(),
  client: (): Record<string, never> => ({}),
  service: (): Record<string, never> => ({}),
  routes: [],
});
