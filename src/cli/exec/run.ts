// Owns `agentteam exec` argument handling: help and schemas without credentials, input validation, one call, exit codes.
import { acceptsEmpty, renderActionHelp, renderDomainHelp, renderRootHelp } from '../../catalog/help.js';
import { errorSchemaJson, inputSchemaJson, outputSchemaJson } from '../../catalog/json-schema.js';
import { validateValue } from '../../catalog/validate.js';
import { forRequest } from '../../catalog/operations.js';
import { DuplicateKeyError, parseStrictJson, RefusedJsonError } from '../../shared/strict-json.js';
import { errorEnvelope, type ErrorEnvelope } from '../../wire/exec/envelope.js';
import { MAX_BODY_BYTES } from '../../wire/http/body.js';
import { loadCredentialSource, type CredentialSource } from './credentials.js';
import { extensionCatalog, extensionDomains } from './ext-catalog.js';
import { projectAnswer } from './project.js';
import { loopbackProxyFor } from './proxy.js';
import { sendOnce } from './send.js';
import { builtinCatalog } from '../../domains/registry.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, credentials: 3, denied: 4, unreachable: 5 } as const;

export interface ExecIo {
  stdout(s: string): void;
  stderr(s: string): void;
  readStdin(): Promise<string>;
}

/** The daemon's body cap: a larger input could never be accepted. */
const MAX_INPUT = MAX_BODY_BYTES;

function fail(io: ExecIo, env: ErrorEnvelope, code: number, diagnostic?: string): number {
  io.stdout(`${JSON.stringify(env)}\n`);
  if (diagnostic) io.stderr(`${diagnostic}\n`);
  return code;
}

const usage = (io: ExecIo, message: string, hint: string) => fail(io, errorEnvelope('invalid_input', message, { hint }), EXIT.usage);

/** Runs one `agentteam exec …` invocation; `args` excludes the leading `exec`. Returns the exit code. */
export async function runExec(args: readonly string[], env: NodeJS.ProcessEnv, io: ExecIo): Promise<number> {
  const builtins = builtinCatalog();
  let catalog = builtins;
  // Security invariant: the declared token file is read at most once per invocation (memoized here).
  let source: CredentialSource | undefined;
  const credential = () => (source ??= loadCredentialSource(env));
  const [domain, action, ...rest] = args;
  if (domain === undefined || domain === '--help' || domain === '-h') {
    const c = credential();
    // Inside a runtime, the root help also lists its catalog's Extension domains (github, gitea, …).
    const extra = c.ok ? await extensionDomains(c, env, builtins) : [];
    (domain === undefined ? io.stderr : io.stdout)(renderRootHelp(catalog, extra));
    return domain === undefined ? EXIT.usage : EXIT.ok;
  }
  if (domain === '--error-schema') {
    io.stdout(`${JSON.stringify(errorSchemaJson(builtinCatalog()), null, 2)}\n`);
    return EXIT.ok;
  }
  if (domain.startsWith('-')) return usage(io, `unknown domain: ${domain.slice(0, 64)}`, 'run agentteam exec --help');
  if (!catalog.domains().includes(domain)) {
    // Not a built-in: an Extension action is described by this runtime's own RuntimeCatalog (descriptor-only entries).
    const c = credential();
    const ext = c.ok && /^[a-z][a-z0-9-]{0,31}$/.test(domain) ? await extensionCatalog(c, env, domain) : undefined;
    if (!ext) return usage(io, `unknown domain: ${domain.slice(0, 64)}`, 'run agentteam exec --help');
    catalog = ext;
  }
  if (action === undefined || action === '--help' || action === '-h') {
    (action === undefined ? io.stderr : io.stdout)(renderDomainHelp(catalog, domain));
    return action === undefined ? EXIT.usage : EXIT.ok;
  }
  const d = catalog.find(domain, action);
  if (!d) return usage(io, `unknown action: ${domain} ${action.slice(0, 64)}`, `run agentteam exec ${domain} --help`);
  const flags = rest.filter((a) => a.startsWith('--') || a === '-h');
  const payloads = rest.filter((a) => !(a.startsWith('--') || a === '-h'));
  if (flags.includes('--help') || flags.includes('-h')) {
    io.stdout(renderActionHelp(d));
    return EXIT.ok;
  }
  if (flags.includes('--input-schema') || flags.includes('--output-schema')) {
    io.stdout(`${JSON.stringify(flags.includes('--input-schema') ? inputSchemaJson(d) : outputSchemaJson(d), null, 2)}\n`);
    return EXIT.ok;
  }
  if (flags.length > 0) return usage(io, `unknown option: ${flags[0]!.slice(0, 64)}`, `run agentteam exec ${domain} ${action} --help`);
  if (payloads.length > 1) return usage(io, 'pass one JSON value, or - to read it from stdin', `run agentteam exec ${domain} ${action} --help`);

  let text = payloads[0];
  if (text === '-') text = await io.readStdin();
  let input: unknown;
  if (text === undefined) {
    if (!acceptsEmpty(d.input)) return usage(io, `${domain} ${action} needs a JSON input`, `run agentteam exec ${domain} ${action} --help`);
    input = {};
  } else {
    if (Buffer.byteLength(text) > MAX_INPUT) return usage(io, 'input exceeds 1 MiB', 'send a smaller input');
    try {
      input = parseStrictJson(text);
    } catch (e) {
      if (e instanceof DuplicateKeyError) return usage(io, `input has a ${e.message}`, 'send each field once');
      if (e instanceof RefusedJsonError) return usage(io, `input refused: ${e.message}`, 'send plain text without it');
      return usage(io, 'input is not valid JSON', `run agentteam exec ${domain} ${action} --help`);
    }
  }
  const checked = validateValue(d.input, input);
  if (!checked.ok) return fail(io, errorEnvelope('validation_failed', checked.message, { hint: `run agentteam exec ${domain} ${action} --input-schema` }), EXIT.usage);

  // Security invariant: one read of the declared token file; no raw-token fallback; reasons never name the path or token.
  const cred = credential();
  if (!cred.ok) {
    return fail(io, errorEnvelope('denied', 'no valid Exec credential source', { hint: 'run this inside a runtime launched by the AgentTeam daemon' }), EXIT.credentials, `agentteam exec: ${cred.reason}`);
  }
  const base = cred.baseUrl.href.replace(/\/$/, '');
  const url = new URL(`${base}/${domain}/${action}`);
  const sent = await sendOnce(url, cred.token, JSON.stringify(input), loopbackProxyFor(url, env));
  if (sent.kind === 'unreachable') {
    const hint = sent.afterSend && forRequest(d, input).risk !== 'read' ? 'the request may have been applied; read the resource before repeating it' : 'check that the AgentTeam daemon is running and that this runtime\'s sandbox allows loopback connections';
    return fail(io, errorEnvelope('upstream_unavailable', 'the AgentTeam daemon is not reachable', { hint }), EXIT.unreachable);
  }
  const printed = projectAnswer(catalog, domain, action, sent.body, input);
  if (printed.ok) {
    io.stdout(`${printed.text}\n`);
    return EXIT.ok;
  }
  return fail(io, printed.envelope, sent.status === 403 ? EXIT.denied : EXIT.failed);
}
