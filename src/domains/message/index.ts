// Owns the `message` domain module: messages on exact targets, reactions and attachments (served to the MCP message tools).
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { MESSAGE } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Messages } from './service.js';
import { STREAMED_ROUTES, streamedCalls } from './streams.js';

export const messageDomain = defineDomain({
  name: 'message',
  key: 'messages',
  client: (send) => {
    const derived = clientOf(send, MESSAGE);
    return { ...derived, ...streamedCalls(send, derived) };
  },
  service: (deps) => new Messages(deps),
  routes: [...bindRoutes<typeof MESSAGE, Messages>(MESSAGE), ...STREAMED_ROUTES],
  migrations: MIGRATIONS,
});
