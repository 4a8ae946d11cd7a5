// What subagents and background_subagents share: the `tasks` parameter, running the legs through the
// SubagentPort at most MAX_PARALLEL_LEGS at once, and the labelled report.
//
// The legs share the call's limit (30 min for subagents, the task's `timeout_min` for the background
// one): a leg that waits for a free slot starts later but must finish by the same deadline, so its wait
// counts against its limit. Shortly before the deadline (a twentieth of the limit, at most 10 s) every leg
// still waiting or running is stopped and reported as timed out, and the call still returns the answers
// of the legs that finished.
import type { SubagentAnswer, SubagentPort, SubagentTask } from '../sdk/chat-ports';
import type { JsonSchema, ToolContext } from '../sdk/types';
import { ToolError } from '../sdk/types';

/** At most this many legs run at once (docs/dispatch.md, "Subagents and legs"). */
export const MAX_PARALLEL_LEGS = 3;

/** Most legs one call may ask for. */
export const MAX_LEGS = 10;

/** Longest time kept between stopping the legs and the call's own deadline, to report what finished. */
export const REPORT_MARGIN_MS = 10_000;

/** The `tasks` parameter schema. */
export const TASKS_PARAMETER: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: MAX_LEGS,
  description:
    `The subtasks, 1 to ${MAX_LEGS}, each done by its own subagent that sees only its prompt, e.g. ` +
    '[{"title": "Auth module", "prompt": "Review src/auth for unchecked errors and list them"}].',
  items: {
    type: 'object',
    properties: {
      prompt: {
        type: 'string',
        minLength: 1,
        description:
          'Everything the subagent needs: the goal, the files or facts, the answer you want back, ' +
          'e.g. "List the TODO comments in src/api with file and line".',
      },
      title: {
        type: 'string',
        default: '',
        description: 'A short label for its answer and the UI, e.g. "Auth module"; "Task N" when empty.',
      },
    },
    required: ['prompt'],
    additionalProperties: false,
  },
};

/** How one leg ended, labelled by its title. */
export interface LegReport {
  title: string;
  status: SubagentAnswer['status'] | 'timed_out';
  /** The child chat, when one was started. */
  chatId: string | null;
  text: string;
  error?: string;
}

/** The subagent port, or a clear error inside a child chat (which cannot start subagents). */
export function requireSubagents(ctx: ToolContext): SubagentPort {
  const port = ctx.services.subagents;
  if (!port) {
    throw new ToolError(
      'unavailable',
      'subagents cannot run here (a subagent cannot start subagents of its own); do the work yourself',
    );
  }
  return port;
}

/** The validated `tasks` argument, with default titles; a ToolError naming the bad item. */
export function parseLegTasks(value: unknown): SubagentTask[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LEGS) {
    throw new ToolError('invalid_arguments', `\`tasks\` must be an array of 1 to ${MAX_LEGS} subtasks`, {
      parameter: 'tasks',
    });
  }
  return value.map((raw, index) => {
    const item = (raw ?? {}) as Record<string, unknown>;
    const prompt = typeof item.prompt === 'string' ? item.prompt.trim() : '';
    if (!prompt) {
      throw new ToolError('invalid_arguments', `\`tasks.${index}.prompt\` must be a non-empty string`, {
        parameter: `tasks.${index}.prompt`,
      });
    }
    const title =
      typeof item.title === 'string' && item.title.trim() ? item.title.trim() : `Task ${index + 1}`;
    return { prompt, title };
  });
}

/** Runs every leg, at most MAX_PARALLEL_LEGS at once, under the call's signal and deadline; one report per leg, in order. */
export async function runLegs(
  port: SubagentPort,
  ctx: ToolContext,
  tasks: SubagentTask[],
): Promise<LegReport[]> {
  const limit = new AbortController();
  const timer =
    ctx.deadline === null ? undefined : setTimeout(() => limit.abort(), legTimeLeft(ctx.deadline));
  const signal = AbortSignal.any([ctx.signal, limit.signal]);
  const reports: LegReport[] = new Array(tasks.length);
  let next = 0;
  let finished = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next++;
      const task = tasks[index] as SubagentTask;
      const report = await runLeg(port, ctx, task, signal, limit.signal);
      reports[index] = report;
      finished++;
      ctx.progress({ message: `subagent ${finished}/${tasks.length} ${report.status}: ${report.title}` });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL_LEGS, tasks.length) }, lane));
  } finally {
    clearTimeout(timer);
  }
  return reports;
}

/** The labelled answers: a summary line, then each leg under its number and title. */
export function formatLegReports(reports: LegReport[]): string {
  const count = (status: LegReport['status']) => reports.filter((r) => r.status === status).length;
  const tally = (['completed', 'failed', 'timed_out', 'cancelled'] as const)
    .map((status) => [status, count(status)] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status.replace('_', ' ')}`)
    .join(', ');
  const legs = reports.map((report, index) => {
    const state = report.error ? `${report.status.replace('_', ' ')}: ${report.error}` : report.status;
    const body = report.text.trim() || '(no answer)';
    return `## ${index + 1}. ${report.title} (${state})\n${body}`;
  });
  return [`${reports.length} subagent${reports.length === 1 ? '' : 's'}: ${tally}`, ...legs].join('\n\n');
}

/** Whether any leg gave an answer. */
export function anyCompleted(reports: LegReport[]): boolean {
  return reports.some((report) => report.status === 'completed');
}

async function runLeg(
  port: SubagentPort,
  ctx: ToolContext,
  task: SubagentTask,
  signal: AbortSignal,
  limit: AbortSignal,
): Promise<LegReport> {
  const stopped = (chatId: string | null, text: string): LegReport =>
    limit.aborted
      ? { title: task.title, status: 'timed_out', chatId, text, error: "stopped at the call's time limit" }
      : { title: task.title, status: 'cancelled', chatId, text, error: 'cancelled' };
  if (signal.aborted) return stopped(null, '');
  try {
    const answer = await port.run(ctx.chatId, task, signal, ctx.services.heal);
    if (answer.status === 'cancelled' && signal.aborted) return stopped(answer.chatId, answer.text);
    const report: LegReport = {
      title: task.title,
      status: answer.status,
      chatId: answer.chatId,
      text: answer.text,
    };
    if (answer.error) report.error = answer.error;
    return report;
  } catch (error) {
    if (signal.aborted) return stopped(null, '');
    const message = error instanceof Error ? error.message : String(error);
    return { title: task.title, status: 'failed', chatId: null, text: '', error: message };
  }
}

// Time until the legs are stopped: the deadline less a margin for reporting.
function legTimeLeft(deadline: number): number {
  const left = Math.max(0, deadline - Date.now());
  return Math.max(0, left - Math.min(REPORT_MARGIN_MS, Math.floor(left / 20)));
}
