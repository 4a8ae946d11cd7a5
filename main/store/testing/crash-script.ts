// What the crash writer writes and acknowledges, shared with the test that checks it after kill -9.

/** The chat the writer fills. */
export const CRASH_CHAT_ID = 'chat_crash';

/** The background task the writer leaves running. */
export const CRASH_TASK_ID = 'task_crash';

/** Checkpoints per streamed assistant message. */
export const STREAM_STEPS = 60;

/** Task output updates while each tool call runs. */
export const TOOL_TICKS = 30;

/** One line the writer prints once a write has returned (committed). */
export type CrashAck =
  | { kind: 'group'; pgid: number }
  | { kind: 'task'; tail: number }
  | { kind: 'user'; id: number; seq: number; round: number }
  | { kind: 'begin'; id: number; seq: number; round: number }
  | { kind: 'checkpoint'; id: number; round: number; step: number }
  | { kind: 'finish'; id: number; round: number }
  | { kind: 'queued' | 'started' | 'finished'; callId: string; round: number }
  | { kind: 'results'; id: number; round: number };

/** The user's text in round `round`. */
export function userText(round: number): string {
  return `question ${round}: please look at file_${round}.txt and summarise it`;
}

/** The assistant's text after `step` checkpoints of round `round`; each step extends the last. */
export function streamedText(round: number, step: number): string {
  let text = '';
  for (let i = 0; i <= step; i++)
    text += `round ${round} chunk ${i} lorem ipsum dolor sit amet consectetur. `;
  return text;
}

/** The tool call id of round `round`. */
export function callIdOf(round: number): string {
  return `call_${round}`;
}

/** The task's output tail after `tick` updates. */
export function taskTail(tick: number): string {
  return `line ${tick}\n`.repeat(4).slice(0, 64) + `tick ${tick}`;
}
