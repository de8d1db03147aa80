// Owns the typed projection from the approval DTO to model-visible output: only the schema's canonical fields survive.
import type { ApprovalDto } from './contract.js';

export function projectApproval(a: ApprovalDto): ApprovalDto {
  return { id: a.id, subject: a.subject, reason: a.reason, notify: a.notify, status: a.status, requestedBy: a.requestedBy, decidedBy: a.decidedBy, note: a.note, revision: a.revision, createdAt: a.createdAt, updatedAt: a.updatedAt };
}
