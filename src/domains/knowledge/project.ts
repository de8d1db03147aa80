// Owns the model-visible kb_search / kb_fetch projections (distinct from the DTOs) and the JSON Schemas that describe exactly them.
import type { KbDocument, KbHit } from './contract.js';

/**
 * A hit as a model reads it: `documentId` and `section` are what kb_fetch takes; title, heading and snippet are for the
 * reader, each only when not empty. The score is left out: hits come best first.
 */
export interface KbHitView {
  documentId: string;
  section: number;
  title?: string;
  heading?: string;
  snippet: string;
}

/**
 * A fetched page: the caller already holds the documentId and saw the title in its hit; `nextSection` (only when more
 * follow) is what kb_fetch takes next; no section count (nextSection says whether more follow).
 */
export interface KbDocumentView {
  sections: { section: number; heading?: string; text: string }[];
  nextSection?: number;
}

export function projectKbHit(h: KbHit): KbHitView {
  return { documentId: h.documentId, section: h.section, ...(h.title !== '' ? { title: h.title } : {}), ...(h.heading !== '' ? { heading: h.heading } : {}), snippet: h.snippet };
}

export function projectKbDocument(d: KbDocument): KbDocumentView {
  const v: KbDocumentView = { sections: d.sections.map((s) => (s.heading === '' ? { section: s.section, text: s.text } : { section: s.section, heading: s.heading, text: s.text })) };
  if (d.nextSection !== undefined) v.nextSection = d.nextSection;
  return v;
}

const S = { type: 'string' } as const;
const I = { type: 'integer' } as const;
/** Exactly KbHitView's properties; terse (not closed with additionalProperties) because it is sent on every tools/list. */
export const KB_HITS_SCHEMA = { type: 'array', items: { type: 'object', properties: { documentId: S, section: I, title: S, heading: S, snippet: S }, required: ['documentId', 'section', 'snippet'] } } as const;
/** Exactly KbDocumentView's properties, equally terse. */
export const KB_DOCUMENT_PROPERTIES = {
  sections: { type: 'array', items: { type: 'object', properties: { section: I, heading: S, text: S }, required: ['section', 'text'] } },
  nextSection: I,
} as const;
