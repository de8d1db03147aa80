// Owns the `message` domain module: messages on exact targets, reactions and attachments (served to the MCP message tools).
import { defineDomain } from '../module.js';
import { messageClient } from './client.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Messages } from './service.js';

export const messageDomain = defineDomain({
  name: 'message',
  key: 'messages',
  client: messageClient,
  service: (deps) => new Messages(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
