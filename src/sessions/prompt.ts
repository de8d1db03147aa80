// Owns the prompt compiler: a turn's stable, route and turn parts rendered in the runtime's tool naming (spec §Prompt Integration).
import { dispatcherPromptSummary } from '../catalog/index.js';
import type { McpHandler } from '../wire/mcp/handler.js';
import { createToolNamer, type RuntimeKind } from '../wire/mcp/naming.js';
import { escapeMatches } from '../shared/visible.js';
import { checkNewName } from '../domains/member/name-rule.js';
import { builtinCatalog } from '../domains/registry.js';

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
  private readonly summary = dispatcherPromptSummary(builtinCatalog());

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
 * A member's name as the turn part shows it. Security invariant: only a name that meets today's name rule (letters,
 * digits and `-_.` in one script: nothing that reads as structure) is shown bare; any other (stored before the rule, or
 * a removed member's marked name) is JSON-quoted with every non-ASCII character as a visible `\uXXXX`, so no name can
 * forge an author line, a section or a fence, nor pass a Cyrillic "о" off as the owner's "o".
 */
export function promptName(name: string): string {
  if (meetsNameRule(name)) return name;
  return escapeMatches(JSON.stringify(name), NOT_PLAIN_ASCII);
}

/** Beyond what JSON escapes: backticks and everything outside printable ASCII (surrogate halves one by one). */
const NOT_PLAIN_ASCII = /[^\x20-\x5f\x61-\x7e]/g;

function meetsNameRule(name: string): boolean {
  try {
    return checkNewName(name) === name;
  } catch {
    return false;
  }
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
