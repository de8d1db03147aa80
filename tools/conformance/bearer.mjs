// Preloaded (--import) into the conformance CLI inside the launched runtime: its HTTP clients send the runtime's MCP bearer.
// The suites take no auth option; they reach the server through fetch, undici.request and node:http.request. Each
// request to the runtime's MCP origin gets `Authorization: Bearer $AGENTTEAM_MCP_TOKEN` added at creation (undici's
// and node:http's diagnostics channels); nothing else about the request changes and the token is never printed.
import dc from 'node:diagnostics_channel';

const url = new URL(process.env.AGENTTEAM_MCP_URL ?? '');
const bearer = `Bearer ${process.env.AGENTTEAM_MCP_TOKEN ?? ''}`;

// fetch (Node's bundled undici) and the npm undici both publish here; addHeader is the channel's documented hook.
dc.subscribe('undici:request:create', ({ request }) => {
  let host;
  try {
    host = new URL(request.origin).host;
  } catch {
    return;
  }
  if (host === url.host) request.addHeader('authorization', bearer);
});

// node:http publishes a ClientRequest before its head is stored, so a header can still be set. ClientRequest keeps no
// port; its default Host header (`host:port`) names the server it connects to.
dc.subscribe('http.client.request.created', ({ request }) => {
  if (request.host !== url.hostname || request.getHeader('host') !== url.host) return;
  if (request.headersSent || request.getHeader('authorization') !== undefined) return;
  request.setHeader('authorization', bearer);
});
