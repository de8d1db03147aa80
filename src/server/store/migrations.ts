// Owns the schema history: the machinery's and every domain's steps assembled into one ordered, forward-only list per engine.
import { DOMAINS } from '../../domains/registry.js';
import { MACHINERY_MIGRATIONS } from './machinery-migrations.js';

/** One applied step of one engine; version N is the N-th entry. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * A step a domain (or the machinery) owns, in both engines' SQL. Versions are global: several owners may contribute to
 * one version (the first version creates members, channels and messages together); their SQL is concatenated in
 * registry order (machinery first). PostgreSQL text columns use COLLATE "C" so ORDER BY and keyset comparisons are
 * byte order as on SQLite; millisecond timestamps are BIGINT, blobs BYTEA. Never edit or reorder an applied step.
 */
export interface MigrationStep {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

/** Groups steps by version into one engine's list; fails when versions are not 1..N without gaps. */
export function assembleMigrations(steps: readonly MigrationStep[], engine: 'sqlite' | 'postgres'): Migration[] {
  const byVersion = new Map<number, MigrationStep[]>();
  for (const s of steps) byVersion.set(s.version, [...(byVersion.get(s.version) ?? []), s]);
  const versions = [...byVersion.keys()].sort((a, b) => a - b);
  versions.forEach((v, i) => {
    if (v !== i + 1) throw new Error(`schema steps are not contiguous: version ${i + 1} is missing`);
  });
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

export const ALL_STEPS: readonly MigrationStep[] = [...MACHINERY_MIGRATIONS, ...DOMAINS.flatMap((d) => d.migrations ?? [])];
export const SQLITE_MIGRATIONS: readonly Migration[] = assembleMigrations(ALL_STEPS, 'sqlite');
export const POSTGRES_MIGRATIONS: readonly Migration[] = assembleMigrations(ALL_STEPS, 'postgres');
