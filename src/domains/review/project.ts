// Owns the typed projection from review DTOs to model-visible output: only the schema's canonical fields survive.
import type { ReviewDto } from './contract.js';

export function projectReview(r: ReviewDto): ReviewDto {
  return { id: r.id, target: r.target, authorId: r.authorId, verdict: r.verdict, body: r.body, status: r.status, revision: r.revision, createdAt: r.createdAt, updatedAt: r.updatedAt };
}
