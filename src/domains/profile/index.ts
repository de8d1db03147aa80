// Owns the `profile` domain module: its declared actions, server calls (client and routes derive from them), service and schema steps.
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { declaredActions } from '../../wire/exec/declare.js';
import { defineDomain } from '../module.js';
import { PROFILE_ACTIONS } from './actions.js';
import { PROFILE } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Profiles } from './service.js';

export const profileDomain = defineDomain({
  name: 'profile',
  key: 'profiles',
  summary: "Read any member's public profile; edit your own.",
  selector: 'memberId',
  ...declaredActions(PROFILE_ACTIONS),
  client: (send) => clientOf(send, PROFILE),
  service: (deps) => new Profiles(deps),
  routes: bindRoutes<typeof PROFILE, Profiles>(PROFILE, { mine: (s, a) => s.get(a, {}), updateMine: (s, a, i) => s.update(a, i) }),
  migrations: MIGRATIONS,
});
