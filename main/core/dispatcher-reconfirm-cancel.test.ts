// A cancel that arrives while a call is being decided again (docs/dispatch.md, "One call, step by step"): a call a rule allowed is
// reconfirmed before it runs when other calls of its batch ran first, and the person may stop the turn during that
// wait. The call must then not start: before, a background call started its task after the cancel.
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/sdk/types';
import { policyGate } from './gate-port';
import { testCore } from './testing/test-core';

const params = { type: 'object', properties: {}, additionalProperties: false };

describe('a cancel during the reconfirmation of a call', () => {
  it.each([
    ['a background call', true],
    ['a foreground call', false],
  ])('%s does not start', async (_what, background) => {
    let ran = 0;
    const tool = defineTool({
      name: 'slow_job',
      description: 'Run a slow job.\nUse when testing.',
      parameters: params,
      flags: { background },
      handler: () => {
        ran++;
        return 'ran';
      },
    });
    const turn = new AbortController();
    let decided = 0;
    const core = testCore([tool], {
      gate: policyGate(() => {
        // The first decision is the rule's; the second is the reconfirmation, during which the person stops the turn.
        if (++decided === 2) turn.abort(new Error('stopped by the user'));
        return { kind: 'allow', scope: 'always', by: 'rule', ruleId: 'r1', ruleOrigin: 'user' };
      }),
    });
    const scope = { chatId: 'c', workspace: core.dir, signal: turn.signal };
    const prepared = core.dispatcher.prepare({ id: '1', name: 'slow_job', args: {} }, scope);
    const approval = await core.dispatcher.approve([prepared], scope);
    expect(approval.outcomes[0]).toBeNull();
    if (prepared.kind !== 'ready') throw new Error('the call is not ready');
    const outcome = await core.dispatcher.execute(prepared, scope, true);
    expect(decided).toBe(2);
    expect(outcome.outcome).toBe('cancelled');
    expect(core.tasks.list()).toEqual([]);
    expect(ran).toBe(0);
  });
});
