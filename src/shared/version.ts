// Owns the one version string (package.json's), reported by the server's /v1/server and the MCP server info.
import pkg from '../../package.json' with { type: 'json' };

export const SERVER_VERSION: string = pkg.version;
