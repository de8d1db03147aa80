// Owns the typed client derived from a domain's endpoint declarations: one method per endpoint, its path filled from
// id-checked segments, its query and body taken from the one input object, its text bounds checked before sending.
import { checkText } from '../shared/bounds.js';
import { pathParams, type Endpoint, type EndpointInput, type EndpointOutput } from '../shared/endpoint.js';
import { qs, seg, type CallOptions, type Send } from './send.js';

/** One method per endpoint; a call whose every field is optional may omit its input. */
export type ClientOf<M> = {
  readonly [K in keyof M]: {} extends EndpointInput<M[K]> ? (input?: EndpointInput<M[K]>, o?: CallOptions) => Promise<EndpointOutput<M[K]>> : (input: EndpointInput<M[K]>, o?: CallOptions) => Promise<EndpointOutput<M[K]>>;
};

/** The request one endpoint makes for `input`: path, query string and body (only the body schema's fields). */
export function requestOf(e: Endpoint, input: Record<string, unknown>): { path: string; body?: Record<string, unknown> } {
  for (const [field, b] of Object.entries(e.bounds ?? {})) if (input[field] !== undefined && input[field] !== null) checkText(input[field], b);
  let path = e.path;
  for (const p of pathParams(e.path)) path = path.replace(`{${p}}`, seg(input[p] as string, p));
  if (e.query) path += qs(Object.fromEntries(Object.keys(e.query.properties).map((k) => [k, input[k] as string | number | undefined])));
  if (!e.body) return { path };
  const body: Record<string, unknown> = {};
  for (const k of Object.keys(e.body.properties)) if (input[k] !== undefined) body[k] = input[k];
  return { path, body };
}

/** The typed client of `endpoints` over `send` (the member's credential is in `send`). */
export function clientOf<M extends Record<string, Endpoint>>(send: Send, endpoints: M): ClientOf<M> {
  const out: Record<string, (input: Record<string, unknown>, o?: CallOptions) => Promise<unknown>> = {};
  for (const [name, e] of Object.entries(endpoints)) {
    out[name] = async (input, o) => {
      const r = requestOf(e, input ?? {});
      return send(r.body === undefined ? { method: e.method, path: r.path, opts: o } : { method: e.method, path: r.path, body: r.body, opts: o });
    };
  }
  return out as ClientOf<M>;
}
