// Owns the daemon's route roots as one fact: the Exec root pattern (routes, OpenAPI) and its concrete URL path (runtime env).
export const EXEC_ROOT = '/api/internal/exec/servers/{serverId}/agents/{agentId}';

/** The Exec root path for one server and agent (ids are from the authorization, never from a request). */
export function execRootPath(serverId: string, agentId: string): string {
  return EXEC_ROOT.replace('{serverId}', encodeURIComponent(serverId)).replace('{agentId}', encodeURIComponent(agentId));
}
