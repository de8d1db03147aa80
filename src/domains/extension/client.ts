// Owns the daemon's extension client: `api.extensions.*` over the server's installation, snapshot and `/runtime/ext` routes.
import { seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { CallOutcome, ExtensionSnapshot, InstallationDto } from './contract.js';
import type { ExtensionName } from './definitions.js';
import { EXT_ROOT } from './routes.js';

export interface ExtensionCall {
  extension: string;
  action: string;
  definitionDigest: string;
  catalogVersion: string;
  input: unknown;
}

export interface ExtensionApi {
  install(input: { name: ExtensionName; baseUrl: string; token?: string; appId?: number; installationId?: number; privateKey?: string; pollIntervalMs?: number; webhookSecret?: string }, o?: CallOptions): Promise<InstallationDto>;
  installations(o?: CallOptions): Promise<{ installations: InstallationDto[] }>;
  setStatus(name: string, status: 'active' | 'suspended', o?: CallOptions): Promise<InstallationDto>;
  snapshot(o?: CallOptions): Promise<ExtensionSnapshot>;
  call(input: ExtensionCall, o?: CallOptions): Promise<CallOutcome>;
}

export function extensionClient(send: Send): ExtensionApi {
  return {
    install: (input, o) => send({ method: 'POST', path: '/v1/extensions/installations', body: input, opts: o }),
    installations: (o) => send({ method: 'GET', path: '/v1/extensions/installations', opts: o }),
    setStatus: (name, status, o) => send({ method: 'POST', path: `/v1/extensions/installations/${seg(name, 'name')}/status`, body: { status }, opts: o }),
    snapshot: (o) => send({ method: 'GET', path: `${EXT_ROOT}/catalog`, opts: o }),
    call: (input, o) => send({ method: 'POST', path: EXT_ROOT, body: input, opts: o }),
  };
}
