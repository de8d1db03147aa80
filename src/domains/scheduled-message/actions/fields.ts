// Owns copying the optional timing fields of an Exec input to the server request (absent stays absent).
import type { TimingInput } from '../contract.js';

export function timingFields(i: TimingInput): TimingInput {
  const out: TimingInput = {};
  if (i.at !== undefined) out.at = i.at;
  if (i.cron !== undefined) out.cron = i.cron;
  if (i.timeZone !== undefined) out.timeZone = i.timeZone;
  if (i.missedPolicy !== undefined) out.missedPolicy = i.missedPolicy;
  return out;
}
