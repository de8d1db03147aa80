// Owns the shape every keyset page shares across server and daemon: hasMore always, nextCursor only when another page exists; the page size bounds.

/** Page size when none is asked for, and the most one page holds (spec §Bounded non-Workflow collection reads). */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Page {
  hasMore: boolean;
  /** Present only when another page exists. */
  nextCursor?: string;
}
