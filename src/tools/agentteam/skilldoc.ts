// Owns the agentteam skill docs (spec §Prompt Integration): short tool-use guidance rendered from the inventory in a runtime's naming.
import type { McpToolDef, SkillDocParts } from '../../wire/mcp/handler.js';
import type { ToolNamer } from '../../wire/mcp/naming.js';
import { MEMORY_DIR_ENV } from '../../memorysearch/clone.js';
import { MEMORY_SKILL_NAME } from '../../memorysearch/skill.js';
import { TARGET_FORMS } from './target.js';

function name(defs: readonly McpToolDef[], namer: ToolNamer, raw: string): string | null {
  return defs.some((d) => d.name === raw) ? namer.toModel(raw) : null;
}

/** How to use the tools; names only tools in `defs` and is identical for every server and agent. */
function stable(defs: readonly McpToolDef[], namer: ToolNamer): string {
  const lines = ['## AgentTeam tools', ''];
  for (const d of defs) lines.push(`- \`${namer.toModel(d.name)}\`: ${d.description}`);
  lines.push('');
  const send = name(defs, namer, 'message_send');
  const history = name(defs, namer, 'message_history_read');
  const attach = name(defs, namer, 'message_attachment_read');
  if (send) lines.push(`- Reply only with \`${send}\`, using the exact target of the message you answer; never guess a target.`);
  if (history) lines.push(`- \`${history}\` pages newest first; pass \`nextCursor\` to read older messages.`);
  if (send) lines.push('- Attach files by paths relative to your working directory (at most 4, ≤10 MiB each).');
  if (attach) lines.push(`- \`${attach}\` saves the file and returns its path; open that path to read it.`);
  const memory = name(defs, namer, 'memory_search');
  if (memory) {
    lines.push(`- Search with \`${memory}\` before writing to \`$${MEMORY_DIR_ENV}\`; skill \`${MEMORY_SKILL_NAME}\` says how to keep it small, dated and linked.`);
  }
  lines.push('- A result with `isError` carries `{code, message, hint}`: follow the hint, do not retry unchanged.');
  return lines.join('\n');
}

/** The route-specific part: what exact targets look like on this server. */
function route(): string {
  return ['## AgentTeam targets', '', `Exact targets: ${TARGET_FORMS.map((f) => `\`${f}\``).join(', ')}.`, 'Channel ids are slugs, e.g. `channel:general`.'].join('\n');
}

export function renderSkillDocSplit(defs: readonly McpToolDef[], namer: ToolNamer): SkillDocParts {
  return { stable: stable(defs, namer), route: route() };
}

export function renderSkillDoc(defs: readonly McpToolDef[], namer: ToolNamer): string {
  const p = renderSkillDocSplit(defs, namer);
  return `${p.stable}\n\n${p.route}\n`;
}
