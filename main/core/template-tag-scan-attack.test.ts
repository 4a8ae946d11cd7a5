// A template built to stall the app before anyone is asked: html_template's pinning step counts a template's
// tags on the app's main thread before the confirm gate, and it looked for each `{%`'s closing `%}` from that
// tag on. Tags that never close, then a long tail of `%` that never is `%}`, made each look-up scan to the end:
// 2,000 such tags and 1 MiB took a minute, 20,000 (the tag limit) ten, with the app frozen. A hostile repository's
// template file or a model's inline template; through the real dispatcher (docs/robustness.md, "Limits on untrusted structures").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { htmlTemplateTool } from '../../tools/builtin/html-template';
import { testCore } from './testing/test-core';

let workspace: string;

beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-tag-scan-'));
});
afterEach(() => {
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** `tags` unclosed `{%` and then `%x` up to about `bytes`: every `%` a false start of `%}`. */
function stallingTemplate(tags: number, bytes: number): string {
  return '{%'.repeat(tags) + '%x'.repeat(Math.max(0, (bytes - tags * 2) / 2));
}

async function timedCall(args: Record<string, unknown>): Promise<{ ms: number; outcome: string }> {
  const core = testCore([htmlTemplateTool]);
  const started = performance.now();
  const result = await core.dispatcher.dispatch(
    { id: '1', name: 'html_template', args },
    { chatId: 'c', workspace },
  );
  return { ms: performance.now() - started, outcome: result.outcome };
}

describe('counting the tags of a template', () => {
  it('takes time in proportion to its length, from a workspace file or inline', async () => {
    fs.writeFileSync(path.join(workspace, 'stall.liquid'), stallingTemplate(2_000, 1024 * 1024));
    fs.writeFileSync(path.join(workspace, 'limit.liquid'), stallingTemplate(19_999, 1024 * 1024));
    const calls = [
      { output: 'a.html', template_file: 'stall.liquid' },
      { output: 'b.html', template_file: 'limit.liquid' },
      { output: 'c.html', template: stallingTemplate(2_000, 2 * 1024 * 1024) },
    ];
    for (const args of calls) {
      const { ms, outcome } = await timedCall(args);
      // Ends (the render refuses the unclosed tag) within moments, not minutes.
      expect(outcome, JSON.stringify(args).slice(0, 80)).toBe('error');
      expect(ms, JSON.stringify(args).slice(0, 80)).toBeLessThan(10_000);
    }
  });
});
