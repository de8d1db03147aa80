// Owns exact-target canonicalization for message tools (ARCHITECTURE §6): trims and lowercases the kind, then applies the one target grammar.
import { formatTarget, parseTarget, TARGET_FORMS } from '../../shared/target.js';

export { TARGET_FORMS };

/**
 * Trims, lowercases the kind prefix and checks the form with the channel domain's grammar; returns null for anything
 * else. The form check is local only: the server authorizes membership of the exact target (spec §Invariants).
 */
export function canonicalizeTarget(raw: string): string | null {
  const s = raw.trim();
  const colon = s.indexOf(':');
  if (colon <= 0) return null;
  try {
    return formatTarget(parseTarget(`${s.slice(0, colon).toLowerCase()}${s.slice(colon)}`));
  } catch {
    return null;
  }
}

export const TARGET_HINT = `use the exact target shown on the message you answer: ${TARGET_FORMS.join(', ')}`;
