// Owns `agentteam exec … --help` text: root (domains), domain (actions), action (usage, fields, one example, risk); each short.
import type { TSchema } from '@sinclair/typebox';
import type { ActionDescriptor, DescriptorCatalog } from './types.js';

function domainSummary(catalog: DescriptorCatalog, domain: string): string {
  return catalog.summary(domain) ?? 'Extension actions.';
}

/** True when `{}` is a valid input (a strict object schema with no required field), so the payload may be omitted. */
export function acceptsEmpty(schema: TSchema): boolean {
  const s = schema as { type?: unknown; required?: unknown[]; minProperties?: number };
  return s.type === 'object' && (s.required ?? []).length === 0 && !(s.minProperties && s.minProperties > 0);
}

const pad = (s: string, n: number) => s + ' '.repeat(Math.max(1, n - s.length));

/** Single-quotes a JSON argument for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function exampleCommand(d: ActionDescriptor): string {
  return `agentteam exec ${d.domain} ${d.action} ${shellQuote(JSON.stringify(d.example))}`;
}

function typeName(s: TSchema): string {
  const any = (s as { anyOf?: TSchema[] }).anyOf;
  if (Array.isArray(any)) {
    if (any.every((o) => 'const' in o)) return any.map((o) => String(o.const)).join('|');
    return any.map(typeName).join('|');
  }
  if (s.type === 'object') return `{${Object.keys((s as { properties?: object }).properties ?? {}).join(',')}}`;
  if (s.type === 'array') return `${typeName((s as unknown as { items: TSchema }).items)}[]`;
  return String(s.type ?? 'value');
}

function fields(s: TSchema): string {
  const props = ((s as { properties?: Record<string, TSchema> }).properties ?? {}) as Record<string, TSchema>;
  const required = new Set(((s as { required?: string[] }).required ?? []) as string[]);
  const parts = Object.entries(props).map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${typeName(v)}`);
  return parts.length ? parts.join(', ') : '(none)';
}

/** The root help: the catalog's domains, then `extra` (a runtime's Extension domains, with their own help lines). */
export function renderRootHelp(catalog: DescriptorCatalog, extra: readonly { name: string; summary?: string }[] = []): string {
  const more = extra.filter((e) => !catalog.domains().includes(e.name));
  const lines = [...catalog.domains().map((d) => [d, domainSummary(catalog, d)] as const), ...more.map((e) => [e.name, e.summary ?? 'Extension actions.'] as const)];
  const width = Math.max(...lines.map(([d]) => d.length)) + 3;
  return [
    'Usage: agentteam exec <domain> <action> [JSON|-]',
    '',
    'Domains:',
    ...lines.map(([d, summary]) => `  ${pad(d, width)}${summary}`),
    '',
    'More: agentteam exec <domain> --help, agentteam exec <domain> <action> --help',
    'Schemas: <action> --input-schema | --output-schema; agentteam exec --error-schema',
    'Exit: 0 ok, 1 ok:false, 2 bad usage/input, 3 credential source, 4 denied, 5 daemon unreachable',
    '',
  ].join('\n');
}

export function renderDomainHelp(catalog: DescriptorCatalog, domain: string): string {
  const actions = catalog.actions.filter((d) => d.domain === domain);
  const width = Math.max(...actions.map((d) => d.action.length)) + 3;
  return [
    `Usage: agentteam exec ${domain} <action> [JSON|-]`,
    domainSummary(catalog, domain),
    '',
    'Actions:',
    ...actions.map((d) => `  ${pad(d.action, width)}${d.summary}${d.risk === 'read' ? '' : ` [${d.risk}]`}`),
    '',
    `More: agentteam exec ${domain} <action> --help`,
    '',
  ].join('\n');
}

/** `write`, or with operations: `write (read: list, show; write: create, update)`. */
function riskLine(d: ActionDescriptor): string {
  if (!d.operations) return d.risk;
  const by = new Map<string, string[]>();
  for (const [op, p] of Object.entries(d.operations)) by.set(p.risk, [...(by.get(p.risk) ?? []), op]);
  return `${d.risk} (${[...by].map(([r, ops]) => `${r}: ${ops.join(', ')}`).join('; ')})`;
}

export function renderActionHelp(d: ActionDescriptor): string {
  const optional = acceptsEmpty(d.input);
  return [
    `Usage: agentteam exec ${d.domain} ${d.action} ${optional ? '[JSON|-]' : '<JSON|->'}`,
    d.summary,
    '',
    `Input: ${fields(d.input)}`,
    `Output: ${fields(d.output)}`,
    `Risk: ${riskLine(d)}`,
    '',
    'Example:',
    `  ${exampleCommand(d)}`,
    '',
    'Schemas: --input-schema, --output-schema',
    '',
  ].join('\n');
}
