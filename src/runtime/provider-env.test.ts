// Tests providerEnv: each kind's canonical provider vars, nothing for kinds without them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { providerEnv } from './provider-env.js';

test('claude and codex get their own provider vars; command gets none', () => {
  const cfg = { apiKey: 'k', baseUrl: 'https://b', headers: { 'X-A': '1', 'X-B': '2' } };
  assert.deepEqual(providerEnv({ runtime: 'claude', ...cfg }), { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'https://b', ANTHROPIC_CUSTOM_HEADERS: 'X-A: 1\nX-B: 2' });
  assert.deepEqual(providerEnv({ runtime: 'codex', ...cfg }), { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://b' });
  assert.deepEqual(providerEnv({ runtime: 'command', ...cfg }), {});
  assert.deepEqual(providerEnv({ runtime: 'claude' }), {});
});
