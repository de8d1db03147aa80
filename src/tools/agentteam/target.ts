// Owns exact-target canonicalization for message tools (ARCHITECTURE §6): channel:<slug>, dm:<id>, thread:<channelId>/<rootMessageId>, task:<id>.

export const TARGET_FORMS = ['channel:<slug>', 'dm:<id>', 'thread:<channelId>/<rootMessageId>', 'task:<id>'] as const;

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/**
 * Trims, lowercases the kind prefix and checks the form; returns null for anything else. The form check is
 * local only: the server authorizes membership of the exact target (spec §Invariants).
 */
export function canonicalizeTarget(raw: string): string | null {
  const s = raw.trim();
  const colon = s.indexOf(':');
  if (colon <= 0) return null;
  const kind = s.slice(0, colon).toLowerCase();
  const rest = s.slice(colon + 1);
  switch (kind) {
    case 'channel':
    case 'dm':
    case 'task':
      return ID.test(rest) ? `${kind}:${rest}` : null;
    case 'thread': {
      const slash = rest.indexOf('/');
      if (slash < 0) return null;
      const channel = rest.slice(0, slash);
      const root = rest.slice(slash + 1);
      return ID.test(channel) && ID.test(root) ? `thread:${channel}/${root}` : null;
    }
    default:
      return null;
  }
}

export const TARGET_HINT = `use the exact target shown on the message you answer: ${TARGET_FORMS.join(', ')}`;
