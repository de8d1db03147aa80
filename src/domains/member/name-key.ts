// Owns when two member names read the same: the comparison key (NFKC, case folded, invisibles dropped) and the one check every name-setting path runs.
import { createHash } from 'node:crypto';
import { AppError } from '../../shared/errors.js';
import type { Sql } from '../../server/store/types.js';

/** Default-ignorable code points (zero-width spaces and joiners, soft hyphen, variation selectors…): they never show. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * What a reader sees of `name`: NFKC (width forms, ligatures, compatibility letters), case folded (upper then lower, so
 * ß = SS = ss), invisible characters dropped, white space trimmed and collapsed. Two names with one key are one name.
 */
export function nameKey(name: string): string {
  const folded = name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
  return folded.replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
}

/** The stored form of the key: a fixed 43-character digest (a key may be many times longer than its name after NFKC). */
export function nameKeyDigest(name: string): string {
  return createHash('sha256').update(nameKey(name)).digest('base64url');
}

// Security invariant: one message whoever holds the name, so a would-be member learns nothing beyond "taken".
const taken = (name: string) => new AppError('conflict', `the name ${JSON.stringify(name)} is taken in this workspace (names are unique ignoring case, width and invisible characters)`);

/**
 * Refuses `name` when a current member other than `selfId` reads the same, inside the caller's transaction; returns the
 * digest to store in members.name_key. Rows from before the key existed (name_key NULL) are compared here in code; the
 * partial unique index on name_key makes two racing writers end in one member and one conflict on both engines.
 */
export async function claimName(sql: Sql, name: string, selfId?: string): Promise<string> {
  const digest = nameKeyDigest(name);
  const self = selfId ?? '';
  if (await sql.get('SELECT 1 AS x FROM members WHERE name_key = ? AND removed_at IS NULL AND id <> ?', [digest, self])) throw taken(name);
  const key = nameKey(name);
  const unkeyed = await sql.all<{ name: string }>('SELECT name FROM members WHERE name_key IS NULL AND removed_at IS NULL AND id <> ?', [self]);
  if (unkeyed.some((r) => nameKey(r.name) === key)) throw taken(name);
  return digest;
}
