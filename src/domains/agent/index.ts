// Owns the `agent` domain module: a daemon-local Exec domain (its declared actions); nothing on the server.
import { declaredActions } from '../../wire/exec/declare.js';
import { defineDomain } from '../module.js';
import { AGENT_ACTIONS } from './actions.js';

export const agentDomain = defineDomain({
  name: 'agent',
  key: 'agents',
  local: true,
  summary: 'Teammate agents on this daemon.',
  ...declaredActions(AGENT_ACTIONS),
  client: (): Record<string, never> => ({}),
  service: (): Record<string, never> => ({}),
  routes: [],
});
