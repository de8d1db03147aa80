// Owns the schema history: the machinery's and every domain's steps assembled into one ordered, forward-only list per engine.
import { AppError } from '../../shared/errors.js';
import { MACHINERY_MIGRATIONS } from './machinery-migrations.js';
import type { MigrationStep } from './types.js';

/** One applied step of one engine; versions strictly increase (a version assigned to a branch not merged yet is a gap). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export type { MigrationStep };

/**
 * Groups steps by version into one engine's list. Versions are reserved per owner in advance, so the list may have gaps
 * (a version whose owner has not landed yet); a database that moved past a gap is refused later by planMigrations.
 */
export function assembleMigrations(steps: readonly MigrationStep[], engine: 'sqlite' | 'postgres'): Migration[] {
  const byVersion = new Map<number, MigrationStep[]>();
  for (const s of steps) {
    if (!Number.isInteger(s.version) || s.version < 1) throw new Error(`schema step ${s.name} has version ${s.version}; versions are integers from 1`);
    byVersion.set(s.version, [...(byVersion.get(s.version) ?? []), s]);
  }
  const versions = [...byVersion.keys()].sort((a, b) => a - b);
  if (versions[0] !== undefined && versions[0] !== 1) throw new Error('schema steps start at version 1');
  // Only version 1 is shared (members, channels and messages together); two owners of a later version would be joined
  // silently, and a database that had applied it for one of them would never get the other's part.
  for (const [v, parts] of byVersion) {
    if (v > 1 && parts.length > 1) throw new Error(`schema version ${v} has more than one owner (${parts.map((p) => p.name).join(', ')})`);
  }
  return versions.map((v) => {
    const parts = byVersion.get(v)!;
    return { version: v, name: parts.map((p) => p.name).join('; '), sql: parts.map((p) => (engine === 'sqlite' ? p.sqlite : p.postgres)).join('\n') };
  });
}

/**
 * What to apply to a database that has `applied` versions: every known step above its newest one, in order. Refused:
 * a database newer than this code, and one that lacks a known step below its newest (the step landed after the
 * database moved past its version; applying it out of order could break what came after, so an operator decides).
 */
export function planMigrations(migrations: readonly Migration[], applied: readonly number[]): { known: number; pending: Migration[] } {
  migrations.forEach((m, i) => {
    if (i > 0 && m.version <= migrations[i - 1]!.version) throw new Error(`migration list is not in increasing order at index ${i}`);
  });
  const known = migrations.at(-1)?.version ?? 0;
  const current = applied.reduce((a, b) => Math.max(a, b), 0);
  if (current > known) throw new AppError('internal', `database schema version ${current} is newer than this server supports (${known}); upgrade AgentTeam`);
  const have = new Set(applied);
  const skipped = migrations.find((m) => m.version < current && !have.has(m.version));
  if (skipped) throw new AppError('internal', `database schema is at version ${current} but never applied step ${skipped.version} (${skipped.name}); restore a backup or apply it by hand`);
  return { known, pending: migrations.filter((m) => m.version > current) };
}

/** One server's schema in both engines: the machinery's steps and the given domains' steps (the composition root's list). */
export interface Schema {
  readonly sqlite: readonly Migration[];
  readonly postgres: readonly Migration[];
}

export function assembleSchema(domains: readonly { readonly migrations?: readonly MigrationStep[] }[]): Schema {
  const steps = [...MACHINERY_MIGRATIONS, ...domains.flatMap((d) => d.migrations ?? [])];
  return Object.freeze({ sqlite: assembleMigrations(steps, 'sqlite'), postgres: assembleMigrations(steps, 'postgres') });
}
