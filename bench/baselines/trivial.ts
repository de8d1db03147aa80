// Owns the trivial server that measures the load generator's ceiling: node:http answering one canned JSON-RPC result, no parsing, no checks.
import { createServer } from 'node:http';
import { serveFromStdin } from './common.js';

const BODY = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}');

await serveFromStdin(async () => {
  // Nothing is read or validated: whatever the request, the same bytes (node drains the unread body itself).
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length });
    res.end(BODY);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
});
