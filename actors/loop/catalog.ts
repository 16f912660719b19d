// The self-play loop's message catalog (composition root): every message type the loop defines, handed to the
// runtime so `spade tail` decodes all of them. A new message module is added here (a test checks none is missing).
import type { MessageType } from '../../runtime/messages.js';
import { DesignJob, DesignOutcome, EnvAccepted, EnvRejected, LabeledBatch, RolloutJob, TrajectoryGroup } from './messages.js';
import { MemoryEntryRecord } from './memory/memory-entry.js';
import { SandboxReply, SandboxRequest } from '../sandbox/sandbox-messages.js';

export const LOOP_MESSAGES: readonly MessageType<unknown>[] = [
  DesignJob,
  EnvAccepted,
  EnvRejected,
  RolloutJob,
  DesignOutcome,
  TrajectoryGroup,
  LabeledBatch,
  SandboxRequest,
  SandboxReply,
  MemoryEntryRecord,
];
