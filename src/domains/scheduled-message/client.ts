// Owns the daemon's `scheduled-message` client: `api.schedules.*` over the server's scheduled-message routes.
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { CreateInput, RunPage, ScheduleDto, SchedulePage, UpdateInput } from './contract.js';

export interface ScheduleApi {
  create(input: CreateInput, o?: CallOptions): Promise<ScheduleDto>;
  get(scheduleId: string, o?: CallOptions): Promise<ScheduleDto>;
  /** Ordered createdAt DESC, id DESC; the caller's own (the owner: all). limit 1..100, default 20. */
  list(input: { enabled?: boolean; limit?: number; cursor?: string }, o?: CallOptions): Promise<SchedulePage>;
  update(input: UpdateInput & { scheduleId: string }, o?: CallOptions): Promise<ScheduleDto>;
  enable(input: { scheduleId: string }, o?: CallOptions): Promise<ScheduleDto>;
  disable(input: { scheduleId: string }, o?: CallOptions): Promise<ScheduleDto>;
  delete(input: { scheduleId: string }, o?: CallOptions): Promise<{ scheduleId: string; deleted: true }>;
  /** Ordered COALESCE(attemptedAt, createdAt) DESC, id DESC. */
  runs(input: { scheduleId: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<RunPage>;
}

export function scheduleClient(send: Send): ScheduleApi {
  const at = (id: string) => `/v1/scheduled-messages/${seg(id, 'scheduleId')}`;
  return {
    create: (input, o) => send({ method: 'POST', path: '/v1/scheduled-messages', body: input, opts: o }),
    get: (id, o) => send({ method: 'GET', path: at(id), opts: o }),
    list: (input, o) => send({ method: 'GET', path: `/v1/scheduled-messages${qs({ enabled: input.enabled === undefined ? undefined : String(input.enabled), limit: input.limit, cursor: input.cursor })}`, opts: o }),
    update: ({ scheduleId, ...body }, o) => send({ method: 'PATCH', path: at(scheduleId), body, opts: o }),
    enable: (input, o) => send({ method: 'POST', path: `${at(input.scheduleId)}/enable`, body: {}, opts: o }),
    disable: (input, o) => send({ method: 'POST', path: `${at(input.scheduleId)}/disable`, body: {}, opts: o }),
    delete: (input, o) => send({ method: 'POST', path: `${at(input.scheduleId)}/delete`, body: {}, opts: o }),
    runs: (input, o) => send({ method: 'GET', path: `${at(input.scheduleId)}/runs${qs({ limit: input.limit, cursor: input.cursor })}`, opts: o }),
  };
}
