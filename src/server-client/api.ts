// Owns the daemon → AgentTeam Server contract: DTOs (lowerCamelCase) and the typed API every product call goes through.
// The server (src/server) implements these routes; ServerClient (src/server-client/client.ts) is the only caller.

export type MemberKind = 'human' | 'agent';
export type TargetKind = 'channel' | 'dm' | 'thread' | 'task';

export interface ServerInfo {
  serverId: string;
  workspaceId: string | null;
  version: string;
}

export interface MemberDto {
  id: string;
  name: string;
  kind: MemberKind;
  role: 'owner' | 'member';
  createdAt: string;
}

export interface BootstrapResult {
  serverId: string;
  workspaceId: string;
  owner: MemberDto;
  /** The owner's server credential; returned only when the owner is first created. */
  ownerCredential?: string;
  created: boolean;
}

export interface AgentCreated {
  agent: MemberDto;
  /** The agent's own server credential; never model-visible. */
  credential: string;
}

export interface ChannelDto {
  id: string; // slug, unique per workspace
  name: string;
  createdAt: string;
}

export interface DmDto {
  id: string;
  memberIds: string[];
}

export interface AttachmentMeta {
  id: string;
  name: string;
  contentType: string;
  size: number;
}

export interface ReactionDto {
  emoji: string;
  count: number;
  memberIds: string[];
}

export interface MessageDto {
  id: string;
  /** The exact canonical target, e.g. channel:general, thread:general/msg_x. */
  target: string;
  author: { id: string; name: string; kind: MemberKind };
  content: string;
  replyTo: string | null;
  createdAt: string;
  reactions: ReactionDto[];
  attachments: AttachmentMeta[];
}

export interface Page {
  hasMore: boolean;
  /** Present only when another page exists. */
  nextCursor?: string;
}

export interface MessagePage extends Page {
  messages: MessageDto[];
}

export interface NewAttachment {
  name: string;
  contentType: string;
  data: Buffer;
}

export type TaskStatus = 'open' | 'in_progress' | 'blocked' | 'done' | 'canceled';

export interface TaskDto {
  id: string;
  title: string;
  description: string;
  status: TaskStatus;
  assigneeId: string | null;
  createdBy: string;
  blockedReason: string | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface TaskCommentDto {
  id: string;
  taskId: string;
  authorId: string;
  body: string;
  createdAt: string;
}

export interface TaskPage extends Page {
  tasks: TaskDto[];
}

export type ReviewVerdict = 'approve' | 'request_changes' | 'comment';
export type ReviewStatus = 'open' | 'resolved';

export interface ReviewDto {
  id: string;
  /** The resolved thread target the review belongs to, e.g. task:tsk_x or thread:general/msg_x. */
  target: string;
  authorId: string;
  verdict: ReviewVerdict;
  body: string;
  status: ReviewStatus;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface ReviewPage extends Page {
  reviews: ReviewDto[];
}

/** One message addressed to the calling agent (ARCHITECTURE §9); `target` is exactly where it was posted and where the reply goes. */
export interface TurnDto {
  /** The message's position in the server's feed (the daemon's cursor). */
  seq: number;
  messageId: string;
  target: string;
  targetType: TargetKind;
  author: { id: string; name: string; kind: MemberKind };
  content: string;
  createdAt: string;
  /** Consecutive agent-authored messages in the target ending at this one (0 for a Human message). */
  agentRun: number;
}

export interface TurnPage {
  turns: TurnDto[];
  /** Pass as `after` next time: the last feed position scanned. */
  cursor: number;
}

/** Options every call may carry. Mutations may carry an idempotency key (sent as Idempotency-Key + X-Request-ID). */
export interface CallOptions {
  signal?: AbortSignal;
  idempotencyKey?: string;
}

export type TaskTransition = 'start' | 'block' | 'complete' | 'reopen' | 'cancel';

/** The API as seen by one member (agent or Human owner), bound to that member's server credential. */
export interface ServerApi {
  me(o?: CallOptions): Promise<MemberDto>;
  listMembers(o?: CallOptions): Promise<MemberDto[]>;

  // owner-only
  createAgent(input: { name: string }, o?: CallOptions): Promise<AgentCreated>;
  createChannel(input: { id: string; name?: string }, o?: CallOptions): Promise<ChannelDto>;
  addChannelMember(channelId: string, memberId: string, o?: CallOptions): Promise<void>;

  listChannels(o?: CallOptions): Promise<ChannelDto[]>;
  openDm(memberIds: string[], o?: CallOptions): Promise<DmDto>;

  // messages: targets are exact canonical strings; the server authorizes membership.
  sendMessage(input: { target: string; content: string; replyTo?: string; attachments?: NewAttachment[] }, o?: CallOptions): Promise<MessageDto>;
  /** Newest first. limit 1..100, default 20. */
  listMessages(input: { target: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<MessagePage>;
  react(input: { messageId: string; emoji: string; remove?: boolean }, o?: CallOptions): Promise<MessageDto>;
  getAttachment(attachmentId: string, o?: CallOptions): Promise<AttachmentMeta & { data: Buffer }>;

  // tasks
  createTask(input: { title: string; description?: string; assigneeId?: string }, o?: CallOptions): Promise<TaskDto>;
  getTask(taskId: string, o?: CallOptions): Promise<TaskDto>;
  /** Ordered createdAt DESC, id DESC. limit 1..100, default 20. */
  listTasks(input: { status?: TaskStatus; assigneeId?: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<TaskPage>;
  /** Revision-checked: a stale expectedRevision is a conflict. */
  updateTask(input: { taskId: string; expectedRevision: number; title?: string; description?: string }, o?: CallOptions): Promise<TaskDto>;
  assignTask(input: { taskId: string; assigneeId: string | null }, o?: CallOptions): Promise<TaskDto>;
  transitionTask(input: { taskId: string; transition: TaskTransition; reason?: string }, o?: CallOptions): Promise<TaskDto>;
  commentTask(input: { taskId: string; body: string }, o?: CallOptions): Promise<TaskCommentDto>;

  // reviews
  addReview(input: { target: string; verdict: ReviewVerdict; body: string }, o?: CallOptions): Promise<ReviewDto>;
  getReview(reviewId: string, o?: CallOptions): Promise<ReviewDto>;
  /** Ordered updatedAt DESC, id DESC within the resolved thread. */
  listReviews(input: { target: string; status?: ReviewStatus; limit?: number; cursor?: string }, o?: CallOptions): Promise<ReviewPage>;
  resolveReview(reviewId: string, o?: CallOptions): Promise<ReviewDto>;
  reopenReview(reviewId: string, o?: CallOptions): Promise<ReviewDto>;

  // turns (agents only): messages addressed to the caller after a feed cursor; waits up to waitMs when none are new.
  readTurns(input: { after: number; waitMs?: number }, o?: CallOptions): Promise<TurnPage>;
}

/** Failures of a server call, typed so callers can tell network trouble from a refusal or a server fault. */
export type ServerErrorKind = 'network' | 'timeout' | 'client' | 'server';
