// Owns the compact model-visible forms shared by every projection: one time format and one author label.

/**
 * The one model-visible time format: ISO 8601 basic, UTC, second precision (`20261201T103335Z`, 7 o200k tokens against
 * 13 for `2026-12-01T10:33:35.418Z`). Orderings never read it back (they compare the stored milliseconds).
 */
export function compactTime(iso: string): string {
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

export const COMPACT_TIME_PATTERN = '^\\d{8}T\\d{6}Z$';

/** Times down a page: each call's compact time, or only its time of day (`HHMMSS`) on the UTC day of the call before. */
export function pageTimes(): (iso: string) => string {
  let day = '';
  return (iso) => {
    const full = compactTime(iso);
    const at = full.slice(0, 8) === day ? full.slice(9, 15) : full;
    day = full.slice(0, 8);
    return at;
  };
}

/** An author as the reader needs it: display name plus kind, e.g. `Ada (human)`; the member id is not repeated. */
export function authorLabel(a: { name: string; kind: string }): string {
  return `${a.name} (${a.kind})`;
}

/**
 * The people of one page as a reader needs them: `label(p)` is the display name, and `authors` says each name's kind
 * once (name → kind). A name two kinds share on the page (an agent and a Human both called "ops") is left out of
 * `authors` and labelled `name (kind)` instead, so the kind is never ambiguous.
 */
export function pagePeople<K extends string>(people: Iterable<{ name: string; kind: K }>): { authors: Record<string, K>; label(p: { name: string; kind: K }): string } {
  const kinds = new Map<string, Set<K>>();
  for (const p of people) kinds.set(p.name, (kinds.get(p.name) ?? new Set()).add(p.kind));
  const authors: Record<string, K> = {};
  // Security invariant: a name is an own key even when it is "__proto__" (an assignment would drop it and its kind).
  for (const [name, set] of kinds) if (set.size === 1) Object.defineProperty(authors, name, { value: [...set][0]!, enumerable: true, writable: true, configurable: true });
  return { authors, label: (p) => (kinds.get(p.name)?.size === 1 ? p.name : authorLabel(p)) };
}
