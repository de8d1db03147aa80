// Owns `agentteam exec` argument handling: help and schemas without credentials, input validation, one call, exit codes.
import { acceptsEmpty, renderActionHelp, renderDomainHelp, renderRootHelp } from '../../catalog/help.js';
import { DefaultDescriptorCatalog } from '../../catalog/catalog.js';
import { EXIT, usage, type ExecIo } from './outcome.js';
import { MAX_BODY_BYTES } from '../../wire/http/body.js';
import { execDomains } from './exec-domains.js';
import { loadCredentialSource, type CredentialSource } from './credentials.js';

// Help needs only the catalog; schemas, validation (TypeBox) and the call itself load when a command uses them (fast start).
const schemas = () => import('../../catalog/json-schema.js');
const call = () => import('./call.js');
// Extension actions come from this runtime's own RuntimeCatalog (GET …/catalog), read only for a domain that is not built in.
const ext = () => import('./ext-catalog.js');

export { EXIT, type ExecIo } from './outcome.js';

/** The daemon's body cap: a larger input could never be accepted. */
const MAX_INPUT = MAX_BODY_BYTES;

/** Runs one `agentteam exec …` invocation; `args` excludes the leading `exec`. Returns the exit code. */
export async function runExec(args: readonly string[], env: NodeJS.ProcessEnv, io: ExecIo): Promise<number> {
  const builtins = DefaultDescriptorCatalog(execDomains());
  let catalog = builtins;
  // Security invariant: the declared token file is read at most once per invocation (memoized here).
  let source: CredentialSource | undefined;
  const credential = () => (source ??= loadCredentialSource(env));
  const [domain, action, ...rest] = args;
  if (domain === undefined || domain === '--help' || domain === '-h') {
    const c = credential();
    // Inside a runtime, the root help also lists its catalog's Extension domains (github, gitea, …).
    const extra = c.ok ? await (await ext()).extensionDomains(c, env, builtins) : [];
    (domain === undefined ? io.stderr : io.stdout)(renderRootHelp(catalog, extra));
    return domain === undefined ? EXIT.usage : EXIT.ok;
  }
  if (domain === '--error-schema') {
    io.stdout(`${JSON.stringify((await schemas()).errorSchemaJson(catalog), null, 2)}\n`);
    return EXIT.ok;
  }
  if (domain.startsWith('-')) return usage(io, `unknown domain: ${domain.slice(0, 64)}`, 'run agentteam exec --help');
  if (!catalog.domains().includes(domain)) {
    // Not a built-in: an Extension action is described by this runtime's own RuntimeCatalog (descriptor-only entries).
    const c = credential();
    const found = c.ok && /^[a-z][a-z0-9-]{0,31}$/.test(domain) ? await (await ext()).extensionCatalog(c, env, domain) : undefined;
    if (!found) return usage(io, `unknown domain: ${domain.slice(0, 64)}`, 'run agentteam exec --help');
    catalog = found;
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
    const { inputSchemaJson, outputSchemaJson } = await schemas();
    io.stdout(`${JSON.stringify(flags.includes('--input-schema') ? inputSchemaJson(d) : outputSchemaJson(d), null, 2)}\n`);
    return EXIT.ok;
  }
  if (flags.length > 0) return usage(io, `unknown option: ${flags[0]!.slice(0, 64)}`, `run agentteam exec ${domain} ${action} --help`);
  if (payloads.length > 1) return usage(io, 'pass one JSON value, or - to read it from stdin', `run agentteam exec ${domain} ${action} --help`);

  let text = payloads[0];
  if (text === '-') text = await io.readStdin();
  if (text === undefined && !acceptsEmpty(d.input)) return usage(io, `${domain} ${action} needs a JSON input`, `run agentteam exec ${domain} ${action} --help`);
  if (text !== undefined && Buffer.byteLength(text) > MAX_INPUT) return usage(io, 'input exceeds 1 MiB', 'send a smaller input');
  return (await call()).callAction(catalog, d, text, env, io, credential);
}
