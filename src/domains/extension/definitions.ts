// Owns the App-hosted Extension definitions (github, gitea) as data: actions with strict schemas, one example, risk and
// result policy; each definition's digest (sha256 of its canonical JSON) and the catalog version of a set of them.
import { createHash } from 'node:crypto';
import { Type, type TSchema } from '@sinclair/typebox';
import { canonical } from '../../shared/canonical-json.js';
import { targetPattern, TARGET_MAX } from '../../shared/target.js';

import { EXTENSION_NAMES, type ExtensionName } from './names.js';

export { EXTENSION_NAMES, type ExtensionName };

/** One action of a definition: descriptor data only (the server runs it; the daemon forwards it). */
export interface ExtensionAction {
  readonly action: string;
  readonly summary: string;
  readonly input: TSchema;
  readonly output: TSchema;
  readonly example: unknown;
  readonly risk: 'read' | 'write' | 'destructive';
  readonly resultPolicy: 'cursor' | 'bounded' | 'narrow' | 'mutation';
}

export interface ExtensionDefinition {
  readonly name: ExtensionName;
  readonly summary: string;
  readonly actions: readonly ExtensionAction[];
}

const strict = { additionalProperties: false } as const;
/** owner/name; neither may be `.` or `..` (a dot segment would move the provider URL out of /repos/{owner}/{repo}). */
export const REPO_PATTERN = '^(?!\\.\\.?/)[A-Za-z0-9_.-]{1,100}/(?!\\.\\.?$)[A-Za-z0-9_.-]{1,100}$';
const Repo = Type.String({ pattern: REPO_PATTERN, maxLength: 201, description: 'owner/name' });
const PrNumber = Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Pull request number.' });
const Target = Type.String({ pattern: targetPattern(['channel', 'dm', 'thread', 'task']), maxLength: TARGET_MAX, description: 'Exact message target for updates.' });
const WatchId = Type.String({ pattern: '^wat_[0-9]{15}$', description: 'Watch id, e.g. wat_104729384756102.' });
const Watch = Type.Object(
  {
    id: WatchId,
    repo: Repo,
    number: PrNumber,
    target: Target,
    status: Type.Optional(Type.Union([Type.Literal('stopped')], { description: 'Absent: active.' })),
    error: Type.Optional(Type.Union([Type.Literal('provider_unauthorized'), Type.Literal('provider_failed')], { description: 'Last poll failed.' })),
  },
  strict,
);

function actions(host: string): ExtensionAction[] {
  return [
    {
      action: 'watch-pr',
      summary: `Post ${host} PR updates (reviews, comments, CI, merge/close) to a target.`,
      input: Type.Object({ repo: Repo, number: PrNumber, target: Target }, strict),
      output: Type.Object({ watch: Watch }, strict),
      example: { repo: 'o/r', number: 7, target: 'channel:general' },
      risk: 'write',
      resultPolicy: 'mutation',
    },
    {
      action: 'list-watches',
      summary: 'List your PR watches, newest first.',
      input: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })), cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })) }, strict),
      output: Type.Object({ watches: Type.Array(Watch), hasMore: Type.Boolean(), nextCursor: Type.Optional(Type.String()) }, strict),
      example: { limit: 20 },
      risk: 'read',
      resultPolicy: 'cursor',
    },
    {
      action: 'unwatch',
      summary: 'Stop one of your PR watches.',
      input: Type.Object({ watchId: WatchId }, strict),
      output: Type.Object({ watchId: WatchId, stopped: Type.Literal(true) }, strict),
      example: { watchId: 'wat_104729384756102' },
      risk: 'write',
      resultPolicy: 'mutation',
    },
  ];
}

export const DEFINITIONS: Readonly<Record<ExtensionName, ExtensionDefinition>> = {
  github: { name: 'github', summary: 'GitHub pull-request watches (App extension).', actions: actions('GitHub') },
  gitea: { name: 'gitea', summary: 'Gitea pull-request watches (App extension).', actions: actions('Gitea') },
};

/** The definition as plain JSON (TypeBox's symbols dropped): what the server serves and the digest covers. */
export function definitionJson(d: ExtensionDefinition): unknown {
  return JSON.parse(JSON.stringify(d));
}

/** sha256 of the canonical (sorted-key) JSON of a definition. */
export function definitionDigest(json: unknown): string {
  return `sha256:${createHash('sha256').update(canonical(json)).digest('hex')}`;
}

/** The Extension catalog version of a set of installed definitions: a hash of their sorted names and digests. */
export function extensionCatalogVersion(entries: readonly { name: string; digest: string }[]): string {
  const list = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((e) => ({ name: e.name, digest: e.digest }));
  return `x1-${createHash('sha256').update(canonical(list)).digest('hex').slice(0, 24)}`;
}
