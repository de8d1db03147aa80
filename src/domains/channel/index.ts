// Owns the `channel` domain module: channels, channel membership, DMs and the target grammar (server side; no Exec actions yet).
import { defineDomain } from '../module.js';
import { channelClient } from './client.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Channels } from './service.js';

export const channelDomain = defineDomain({
  name: 'channel',
  key: 'channels',
  client: channelClient,
  service: (deps) => new Channels(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
