// Owns the prompt compiler: a turn's stable, route and turn parts rendered in the runtime's tool naming (spec §Prompt Integration).
import { DefaultDescriptorCatalog, dispatcherPromptSummary } from '../catalog/index.js';
import type { McpHandler } from '../wire/mcp/handler.js';
import { createToolNamer, type RuntimeKind } from '../wire/mcp/naming.js';
import { escapeMatches, NAME_QUOTE_ESCAPES, NOT_IN_NAMES } from '../shared/visible.js';

/** What the turn part says: who wrote what, where. */
export interface PromptTurn {
  agentName: string;
  authorName: string;
  authorKind: 'human' | 'agent';
  target: string;
  messageId: string;
  content: string;
}

export interface CompiledPrompt {
  /** Skill doc stable part + Dispatcher prompt summary: the same for every turn of a runtime kind. */
  stable: string;
  /** The route part, then the turn part. */
  prompt: string;
}

/** Compiles prompts for one handler; the stable part per runtime kind is rendered once. */
export class PromptCompiler {
  private readonly stableByKind = new Map<RuntimeKind, { stable: string; route: string; send: string }>();
  private readonly summary = dispatcherPromptSummary(DefaultDescriptorCatalog());

  constructor(private readonly handler: McpHandler) {}

  private parts(kind: RuntimeKind): { stable: string; route: string; send: string } {
    let p = this.stableByKind.get(kind);
    if (!p) {
      const namer = createToolNamer(kind, this.handler.tools().map((t) => t.name));
      const doc = this.handler.skillDocSplit(namer);
      p = { stable: `${doc.stable}\n\n## AgentTeam actions\n\n${this.summary}`, route: doc.route, send: namer.toModel('message_send') };
      this.stableByKind.set(kind, p);
    }
    return p;
  }

  compile(kind: RuntimeKind, t: PromptTurn): CompiledPrompt {
    const p = this.parts(kind);
    // The message text is quoted as data inside a fence the text itself cannot close.
    const fence = '`'.repeat(Math.max(3, longestRun(t.content, '`') + 1));
    const turn = [
      '## This turn',
      '',
      `You are @${promptName(t.agentName)}. ${promptName(t.authorName)} (${t.authorKind}) wrote in \`${t.target}\` (message \`${t.messageId}\`):`,
      '',
      fence,
      t.content,
      fence,
      '',
      `Reply with \`${p.send}\` to exactly \`${t.target}\`.`,
    ].join('\n');
    return { stable: p.stable, prompt: `${p.route}\n\n${turn}` };
  }
}

/**
 * A member's name as the turn part shows it. Security invariant: a name is chosen by its member (a joining Human, an
 * agent's owner), so one holding a newline, a control or bidi character or a backtick is shown JSON-quoted and can
 * never forge the prompt's structure (a second "This turn" section, another author, a closed fence).
 */
export function promptName(name: string): string {
  if (!NOT_IN_NAMES.test(name) && !name.includes('`')) return name;
  return escapeMatches(JSON.stringify(name), NAME_QUOTE_ESCAPES);
}

function longestRun(s: string, ch: string): number {
  let best = 0;
  let cur = 0;
  for (const c of s) {
    cur = c === ch ? cur + 1 : 0;
    if (cur > best) best = cur;
  }
  return best;
}
