// Owns providerEnv: the agent's provider configuration as its runtime kind's own canonical env vars (the only way a secret leaves the daemon).
import type { AgentProfile } from '../home/profiles.js';

/** Env var names per runtime kind, from each CLI's documented provider settings. */
const VARS: Partial<Record<AgentProfile['runtime'], { key: string; base: string; headers?: string }>> = {
  claude: { key: 'ANTHROPIC_API_KEY', base: 'ANTHROPIC_BASE_URL', headers: 'ANTHROPIC_CUSTOM_HEADERS' },
  codex: { key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL' },
};

// Security invariant: provider secrets go only into this agent's own runtime env — never argv, never a file.
export function providerEnv(p: Pick<AgentProfile, 'runtime' | 'apiKey' | 'baseUrl' | 'headers'>): Record<string, string> {
  const v = VARS[p.runtime];
  if (!v) return {};
  const out: Record<string, string> = {};
  if (p.apiKey) out[v.key] = p.apiKey;
  if (p.baseUrl) out[v.base] = p.baseUrl;
  const h = Object.entries(p.headers ?? {});
  if (v.headers && h.length > 0) out[v.headers] = h.map(([n, x]) => `${n}: ${x}`).join('\n');
  return out;
}
