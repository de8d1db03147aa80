// Owns which characters never show as themselves (controls, bidirectional overrides) and their visible \u escape form.

/** Bidirectional controls: they reorder what a terminal or a reader sees around them. */
const BIDI = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** C0 controls except tab and newline, DEL and C1: what can drive a terminal. */
const CONTROLS = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f';

/** Controls (tab and newline aside) and bidi overrides: never shown raw, even in a multi-line text. */
export const HIDDEN = new RegExp(`[${CONTROLS}${BIDI}]`, 'g');
/** HIDDEN plus tab and newline: what a one-line text shows escaped. */
export const HIDDEN_ON_ONE_LINE = new RegExp(`[${CONTROLS}\\t\\n${BIDI}]`, 'g');
const NAME_HIDDEN = `${CONTROLS}\\t\\n${BIDI}\\u2028\\u2029`;
/** Never part of a name: every control, bidi overrides and the line/paragraph separators. */
export const NOT_IN_NAMES = new RegExp(`[${NAME_HIDDEN}]`, 'u');
/** What a name quoted as JSON still shows raw and must not (NOT_IN_NAMES beyond JSON's own escapes, and backticks). */
export const NAME_QUOTE_ESCAPES = new RegExp(`[${NAME_HIDDEN}\\u0060]`, 'g');

/** `s` with each match of `re` (a global pattern) written as a visible `\uXXXX`. */
export function escapeMatches(s: string, re: RegExp): string {
  return s.replace(re, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
