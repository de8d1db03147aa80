// Tests runtime environment assembly: every daemon-owned spelling is stripped, one canonical pair is appended, PATH leads with bin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { delimiter } from 'node:path';
import { assembleRuntimeEnv, CANONICAL_VARS, isDaemonOwnedVar, isRuntimeExcludedVar, scrubProcessEnv } from './env.js';

const POISON = [
  'AGENTTEAM_EXEC_TOKEN', 'agentteam_exec_token', 'AgentTeam_Exec_Token', 'AGENTTEAM_EXEC_BASE_URL', 'agentteam_exec_base_url',
  'AGENTTEAM_EXEC_TOKEN_FILE', 'Agentteam_Exec_Token_File', 'AGENTTEAM_EXEC_URL', 'AGENTTEAM_EXEC_TOKEN_PATH',
  'AGENTTEAM_EXTENSION_TOKEN', 'agentteam_extension_base_url', 'AGENTTEAM_EXT_TOKEN', 'AGENTTEAM_EXT_TOKEN_FILE',
  'AGENT_TEAM_EXEC_TOKEN', 'agent_team_exec_base_url', 'AGENTTEAM-EXEC-TOKEN', 'AGENTTEAM.EXEC.TOKEN',
  'AGENTTEAM_MCP_TOKEN', 'agentteam_mcp_url', 'AgentTeam_MCP_Token', 'AGENT_TEAM_MCP_TOKEN', 'AGENTTEAMEXECTOKEN',
];

const add = {
  execBaseUrl: 'http://127.0.0.1:4100/api/internal/exec/servers/s/agents/a',
  execTokenFile: '/home/u/.agentteam/run/credentials/abc/token',
  mcpUrl: 'http://127.0.0.1:4100/api/internal/mcp/servers/s/agents/a',
  mcpToken: 'atm_fresh',
  binDir: '/opt/agentteam/bin',
};

test('isDaemonOwnedVar covers canonical, retired, mixed-case and separator variants, and keeps unrelated vars', () => {
  for (const n of POISON) assert.equal(isDaemonOwnedVar(n), true, n);
  for (const n of ['PATH', 'HOME', 'AGENTTEAM_HOME', 'AGENTTEAM_LOG_LEVEL', 'EXEC_TOKEN', 'MY_AGENTTEAM_EXEC_TOKEN', 'AGENTTEAMS']) {
    assert.equal(isDaemonOwnedVar(n), false, n);
  }
});

test('assembleRuntimeEnv strips every poisoned spelling and appends exactly one canonical pair of each', () => {
  const base: NodeJS.ProcessEnv = { HOME: '/home/u', PATH: `/usr/bin${delimiter}/opt/agentteam/bin${delimiter}/bin`, UNSET: undefined };
  for (const n of POISON) base[n] = `stolen-${n}`;
  const env = assembleRuntimeEnv(base, add);
  const owned = Object.keys(env).filter(isDaemonOwnedVar).sort();
  assert.deepEqual(owned, [CANONICAL_VARS.execBaseUrl, CANONICAL_VARS.execTokenFile, CANONICAL_VARS.mcpToken, CANONICAL_VARS.mcpUrl].sort());
  assert.equal(env.AGENTTEAM_EXEC_BASE_URL, add.execBaseUrl);
  assert.equal(env.AGENTTEAM_EXEC_TOKEN_FILE, add.execTokenFile);
  assert.equal(env.AGENTTEAM_MCP_URL, add.mcpUrl);
  assert.equal(env.AGENTTEAM_MCP_TOKEN, add.mcpToken);
  assert.equal('AGENTTEAM_EXEC_TOKEN' in env, false);
  assert.ok(!Object.values(env).some((v) => v.startsWith('stolen-')));
  assert.equal(env.PATH, ['/opt/agentteam/bin', '/usr/bin', '/bin'].join(delimiter));
  assert.equal(env.HOME, '/home/u');
  assert.equal('UNSET' in env, false);
});

test('PATH is created when absent and case variants collapse into one PATH', () => {
  assert.equal(assembleRuntimeEnv({}, add).PATH, '/opt/agentteam/bin');
  const env = assembleRuntimeEnv({ Path: '/x', PATH: '/y' }, add);
  assert.equal(env.PATH, ['/opt/agentteam/bin', '/y'].join(delimiter));
  assert.equal('Path' in env, false);
});

test('relative token file or bin dir are refused', () => {
  assert.throws(() => assembleRuntimeEnv({}, { ...add, execTokenFile: 'token' }), /absolute/);
  assert.throws(() => assembleRuntimeEnv({}, { ...add, binDir: 'bin' }), /absolute/);
});

test('scrubProcessEnv removes daemon-owned vars from the given env and reports their names', () => {
  const env: NodeJS.ProcessEnv = { HOME: '/h', AGENTTEAM_HOME: '/h/.agentteam' };
  for (const n of POISON) env[n] = 'x';
  const removed = scrubProcessEnv(env);
  assert.deepEqual(removed.sort(), [...POISON].sort());
  assert.deepEqual(env, { HOME: '/h', AGENTTEAM_HOME: '/h/.agentteam' });
});

test('property: any casing/separator variant of a daemon-owned family never survives assembly', async () => {
  const fc = (await import('fast-check')).default;
  const family = fc.constantFrom('AGENTTEAM_EXEC', 'AGENT_TEAM_EXEC', 'AGENTTEAM_EXTENSION', 'AGENTTEAM_EXT', 'AGENTTEAM_MCP');
  const sep = fc.constantFrom('_', '-', '.', '');
  const name = fc
    .tuple(family, sep, fc.stringMatching(/^[A-Z_]{0,12}$/), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }))
    .map(([f, s, tail, lower]) => [...(f.replace(/_/g, s) + tail)].map((c, i) => (lower[i % 40] ? c.toLowerCase() : c)).join(''));
  fc.assert(
    fc.property(fc.uniqueArray(name, { maxLength: 20 }), (names) => {
      const base: NodeJS.ProcessEnv = { HOME: '/h' };
      for (const n of names) base[n] = 'stolen';
      const env = assembleRuntimeEnv(base, add);
      assert.deepEqual(Object.keys(env).filter(isDaemonOwnedVar).length, 4);
      assert.ok(!Object.values(env).includes('stolen'));
    }),
  );
});

test('every AGENTTEAM* name, any secret-source variable and any value carrying a daemon secret are dropped; canonical extras are appended', () => {
  const base: NodeJS.ProcessEnv = {
    HOME: '/h',
    AGENTTEAM_HOME: '/h/.agentteam',
    AGENTTEAM_SERVER_ADMIN_TOKEN: 'ata_admin',
    agent_team_server_admin_token: 'ata_admin',
    'AgentTeam.Server-Admin.Token': 'ata_admin',
    AGENTTEAM_LOG_LEVEL: 'debug',
    AGENTTEAM_TURN_TARGET: 'inherited-target',
    COPIED_SECRET: 'prefix-ato_ownersecret1234-suffix',
    KEEP: 'plain',
  };
  const env = assembleRuntimeEnv(base, { ...add, daemonSecrets: ['ato_ownersecret1234'], canonical: { AGENTTEAM_TURN_TARGET: 'channel:general' } });
  assert.deepEqual(
    Object.keys(env).filter(isRuntimeExcludedVar).sort(),
    [...Object.values(CANONICAL_VARS), 'AGENTTEAM_TURN_TARGET'].sort(),
  );
  assert.equal(env.AGENTTEAM_TURN_TARGET, 'channel:general');
  assert.equal('COPIED_SECRET' in env, false);
  assert.equal(env.KEEP, 'plain');
  assert.throws(() => assembleRuntimeEnv({}, { ...add, canonical: { AGENTTEAM_EXEC_TOKEN: 'x' } }), /canonical/);
  assert.throws(() => assembleRuntimeEnv({}, { ...add, canonical: { HOME: 'x' } }), /canonical/);
});

test('scrubProcessEnv also removes secret-source variables in any case', () => {
  const env: NodeJS.ProcessEnv = { HOME: '/h', AGENTTEAM_SERVER_ADMIN_TOKEN: 'a', 'agent-team.server_admin.token': 'b' };
  scrubProcessEnv(env);
  assert.deepEqual(env, { HOME: '/h' });
});
