// A ToolContext for calling a handler directly in tests.
import type { ProgressUpdate, ToolContext, ToolServices } from '../types';

/** A context with a live signal, recorded progress and the given services. */
export function testContext(overrides: Partial<ToolContext> & { services?: ToolServices } = {}) {
  const progress: ProgressUpdate[] = [];
  const lines: string[] = [];
  const log = {
    info: (m: string) => lines.push(`INFO ${m}`),
    warn: (m: string) => lines.push(`WARN ${m}`),
    error: (m: string) => lines.push(`ERROR ${m}`),
  };
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    progress: (u) => progress.push(u),
    log,
    getSecret: async () => undefined,
    workspace: process.cwd(),
    chatId: 'test-chat',
    callId: 'call-1',
    deadline: null,
    approval: { by: 'person', ruleId: null, ruleOrigin: null },
    services: {},
    ...overrides,
  };
  return { ctx, progress, lines };
}
