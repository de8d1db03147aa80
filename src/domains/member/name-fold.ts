// Owns folding a member name to what a reader sees: NFKC, case folded, invisibles dropped (name-key.ts and name-rule.ts build on it).
import { createHash } from 'node:crypto';

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
