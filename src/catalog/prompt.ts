// Owns the Dispatcher prompt summary: a short mixed index pointing at the help hierarchy, with inline task-lifecycle and review-add examples.
import { exampleCommand } from './help.js';
import type { DescriptorCatalog } from './types.js';

const INLINE = ['task/create', 'task/list', 'task/start', 'task/block', 'task/complete', 'task/comment', 'review/add'];

export function dispatcherPromptSummary(catalog: DescriptorCatalog): string {
  const examples = INLINE.map((k) => {
    const [domain, action] = k.split('/') as [string, string];
    const d = catalog.find(domain, action);
    if (!d) throw new Error(`prompt summary: ${k} is not in the catalog`);
    return `  ${exampleCommand(d)}`;
  });
  return [
    'AgentTeam actions run through your shell: `agentteam exec <domain> <action> \'<JSON>\'` (or `-` to read JSON from stdin).',
    'Each call prints one JSON envelope: {"ok":true,"data":…} or {"ok":false,"error":{"code","message","hint"?,"next"?}}.',
    `Domains: ${catalog.domains().join(', ')}. Find actions with \`agentteam exec --help\`, \`agentteam exec <domain> --help\`, and usage plus an example with \`agentteam exec <domain> <action> --help\`.`,
    'Common calls:',
    ...examples,
    'Locators are explicit: pass the taskId or target; nothing is inferred from the conversation. Mutations accept "idempotencyKey"; reuse the same key only to retry the same change.',
  ].join('\n');
}
