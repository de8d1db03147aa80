// Owns the one SQL fragment every knowledge read filters by: the sources a turn's scopes may read (n bound scopes).

/** `SELECT source_id …` for `n` scopes bound in order. Security invariant: every knowledge read joins through this. */
export const visibleSources = (n: number) => `SELECT source_id FROM kb_source_scopes WHERE scope IN (${Array.from({ length: n }, () => '?').join(', ')})`;
