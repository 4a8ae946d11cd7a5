// Events of the confirm gate, for the UI and `agenvoy chat --json`. They carry no argument values (secrets stay out).
import type { ApprovalDecision } from '../core/gate-port';

/** Who or what decided a call. */
export type DecidedBy =
  'user' | 'rule' | 'chat_grant' | 'policy' | 'timeout' | 'no_prompter' | 'cancelled' | 'prompt_failed';

/** One event of the gate. */
export type GateEvent =
  | {
      type: 'gate.requested';
      chatId: string;
      calls: Array<{ callId: string; tool: string; sensitive: string | null }>;
    }
  | { type: 'gate.asking'; chatId: string; callIds: string[]; timeoutMs: number | null }
  | {
      type: 'gate.decided';
      chatId: string;
      callId: string;
      tool: string;
      decision: ApprovalDecision;
      by: DecidedBy;
      ruleId: string | null;
    }
  | { type: 'gate.timed_out'; chatId: string; callIds: string[]; afterMs: number };
