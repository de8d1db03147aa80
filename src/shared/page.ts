// Owns the shape every keyset page shares across server and daemon: hasMore always, nextCursor only when another page exists.
export interface Page {
  hasMore: boolean;
  /** Present only when another page exists. */
  nextCursor?: string;
}
