// Owns the tool-surface cost: tokens of the agentteam inventory, skill doc, dispatcher summary, turn prompt and every exec --help, per runtime naming.
import { dispatcherPromptSummary, renderActionHelp, renderDomainHelp, renderRootHelp } from '../../catalog/index.js';
import { PromptCompiler } from '../../sessions/prompt.js';
import { dynamicToolSpecs } from '../../runtime/drivers/codex-tools.js';
import { createAgentteamHandler } from '../../tools/agentteam/handler.js';
import { createToolNamer } from '../../wire/mcp/naming.js';
import type { TokenRuntime } from './collector.js';
import { builtinCatalog } from '../../domains/registry.js';

export type Count = (text: string) => number;

export interface RuntimeSurface {
  runtime: TokenRuntime;
  /**
   * The seven tool definitions as the runtime gets them: the MCP tools/list definitions in its naming, or for Codex the
   * turn helper's dynamic-tool namespace (name, description, input schema).
   */
  toolsList: number;
  /** The MCP `initialize` instructions (the skill doc in the runtime's native MCP naming). */
  skillDoc: number;
  /** The turn's stable instructions: the skill doc's stable part plus the dispatcher summary (sent with every turn). */
  stable: number;
  /** The route and turn parts around an empty message (per turn). */
  turnOverhead: number;
}

export interface Surface {
  tokenizer: string;
  dispatcherSummary: number;
  runtimes: RuntimeSurface[];
  /** `exec --help`, `exec <domain> --help`, `exec <domain> <action> --help`: tokens each. */
  help: Record<string, number>;
}

export const TOKENIZER = 'o200k_base (gpt-tokenizer 4.0.0)';

/** The o200k counter, loaded only when a report needs it (its tables are large). */
export async function loadCounter(): Promise<Count> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  return (text) => (text.length === 0 ? 0 : countTokens(text));
}

/** Computes the surface from the live inventory and catalog (no daemon needed). */
export function toolSurface(count: Count, runtimes: readonly TokenRuntime[]): Surface {
  const handler = createAgentteamHandler();
  const defs = handler.tools();
  const names = defs.map((d) => d.name);
  const compiler = new PromptCompiler(handler);
  const catalog = builtinCatalog();
  const turn = { agentName: 'demo', authorName: 'owner', authorKind: 'human' as const, target: 'channel:general', messageId: 'msg11', content: '' };
  const out: RuntimeSurface[] = runtimes.map((runtime) => {
    const namer = createToolNamer(runtime, names);
    const native = createToolNamer(runtime, names, { nativeMcp: true });
    const compiled = compiler.compile(runtime, turn);
    return {
      runtime,
      toolsList: count(JSON.stringify(runtime === 'codex' ? dynamicToolSpecs(defs) : defs.map((d) => ({ ...d, name: namer.toModel(d.name) })))),
      skillDoc: count(handler.skillDoc(native)),
      stable: count(compiled.stable),
      turnOverhead: count(compiled.prompt),
    };
  });
  const help: Record<string, number> = { 'exec --help': count(renderRootHelp(catalog)) };
  for (const domain of catalog.domains()) help[`exec ${domain} --help`] = count(renderDomainHelp(catalog, domain));
  for (const d of catalog.actions) help[`exec ${d.domain} ${d.action} --help`] = count(renderActionHelp(d));
  return { tokenizer: TOKENIZER, dispatcherSummary: count(dispatcherPromptSummary(catalog)), runtimes: out, help };
}
