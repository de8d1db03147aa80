// Owns the `channel` domain module: channels, channel membership, DMs and the target grammar (server side; no Exec actions yet).
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { CHANNEL_ID_RE } from '../../shared/target.js';
import { CHANNEL } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Channels } from './service.js';

const channelParams = { paramPatterns: { channelId: CHANNEL_ID_RE } };

export const channelDomain = defineDomain({
  name: 'channel',
  key: 'channels',
  client: (send) => clientOf(send, CHANNEL),
  service: (deps) => new Channels(deps),
  routes: bindRoutes<typeof CHANNEL, Channels>(CHANNEL, {}, { addMember: channelParams, removeMember: channelParams }),
  migrations: MIGRATIONS,
});
