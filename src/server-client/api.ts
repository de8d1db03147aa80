// Owns the daemon → AgentTeam Server contract surface outside the domains: server info, call options, error kinds; ServerApi is
// assembled from the domain registry (each domain's contract.ts owns its DTOs, its client.ts its calls).
export type { CallOptions } from './send.js';
export type { ServerApi } from '../domains/registry.js';
export type { Page } from '../shared/page.js';

export interface ServerInfo {
  serverId: string;
  workspaceId: string | null;
  version: string;
}

export type { ServerErrorKind } from '../shared/failure.js';

// Daemon-side callers may import these domain DTOs from here; each is owned by its domain's contract.ts.
export type { AgentCreated, BootstrapResult, MemberDto, MemberKind } from '../domains/member/contract.js';
export type { ChannelDto, DmDto } from '../domains/channel/contract.js';
export type { TargetKind } from '../domains/channel/target.js';
export type { AttachmentMeta, MessageDto, MessagePage, NewAttachment, ReactionDto } from '../domains/message/contract.js';
export type { TaskCommentDto, TaskDto, TaskPage, TaskStatus, TaskTransition } from '../domains/task/contract.js';
export type { ReviewDto, ReviewPage, ReviewStatus, ReviewVerdict } from '../domains/review/contract.js';
