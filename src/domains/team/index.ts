// Owns the `team` domain module: its declared actions, server calls (client and routes derive from them), service and schema steps.
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { declaredActions } from '../../wire/exec/declare.js';
import { TEAM_ACTIONS } from './actions.js';
import { TEAM } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Teams } from './service.js';

export const teamDomain = defineDomain({
  name: 'team',
  key: 'teams',
  summary: 'Teams and their members.',
  selector: 'teamId',
  ...declaredActions(TEAM_ACTIONS),
  client: (send) => clientOf(send, TEAM),
  service: (deps) => new Teams(deps),
  routes: bindRoutes<typeof TEAM, Teams>(TEAM, { get: (s, a, i) => s.get(a, i.teamId) }),
  migrations: MIGRATIONS,
});
