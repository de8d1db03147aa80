// Owns one `agentteam exec` call after argument handling: strict JSON parse, schema validation, the credential read,
// the request and the printed answer. Loaded only by commands that call (help and schemas never load TypeBox's validator).
import type { ActionDescriptor, DescriptorCatalog } from '../../catalog/types.js';
import { forRequest } from '../../catalog/operations.js';
import { validateValue } from '../../catalog/validate.js';
import { DuplicateKeyError, parseStrictJson, RefusedJsonError } from '../../shared/strict-json.js';
import { errorEnvelope } from '../../wire/exec/envelope.js';
import type { CredentialSource } from './credentials.js';
import { EXIT, fail, usage, type ExecIo } from './outcome.js';
import { projectAnswer } from './project.js';
import { loopbackProxyFor } from './proxy.js';
import { sendOnce } from './send.js';

/** `text` is the JSON argument (undefined: the action accepts `{}`), already within the size cap. */
export async function callAction(catalog: DescriptorCatalog, d: ActionDescriptor, text: string | undefined, env: NodeJS.ProcessEnv, io: ExecIo, credential: () => CredentialSource): Promise<number> {
  const { domain, action } = d;
  let input: unknown = {};
  if (text !== undefined) {
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

  // Security invariant: one read of the declared token file per invocation (the caller memoizes it); no raw-token
  // fallback; reasons never name the path or token.
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
