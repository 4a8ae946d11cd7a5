// ToolSpec.pinArguments through the real dispatcher and batch executor: the gate sees the pinned arguments, the
// handler gets exactly those, alwaysAllow calls are pinned too, and a failed pin is that call's error alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { htmlTemplateTool } from '../../tools/builtin/html-template';
import { defineTool, ToolError } from '../../tools/sdk/types';
import type { ApprovalRequest } from './gate-port';
import { policyGate } from './gate-port';
import { testCore } from './testing/test-core';

let workspace: string;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-pin-'));
});
afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

const params = {
  type: 'object',
  properties: { name: { type: 'string', description: 'A file name, e.g. "a.txt".' } },
  required: ['name'],
  additionalProperties: false,
};

// Pins the content of the named workspace file under `content`; the handler echoes what it got.
const pinning = (name: string, alwaysAllow = false) =>
  defineTool({
    name,
    description: 'Echo a pinned file.\nUse when testing pinning.',
    parameters: params,
    flags: { alwaysAllow },
    pinArguments: async (args, scope) => {
      const file = path.join(scope.workspace, String(args.name));
      if (!fs.existsSync(file)) throw new ToolError('not_found', `${String(args.name)} is not there`);
      return { ...args, content: fs.readFileSync(file, 'utf8') };
    },
    handler: (args) => JSON.stringify(args),
  });

describe('pinArguments', () => {
  it('runs before the gate: the gate sees, and the handler gets, the pinned arguments', async () => {
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'approved');
    const asked: ApprovalRequest[] = [];
    const core = testCore([pinning('pin_echo')], {
      gate: policyGate((request) => {
        asked.push(request);
        // Changed after the gate looked: the handler still gets what the gate saw.
        fs.writeFileSync(path.join(workspace, 'a.txt'), 'swapped');
        return { kind: 'allow', scope: 'once', by: 'person' };
      }),
    });
    const outcome = await core.dispatcher.dispatch(
      { id: '1', name: 'pin_echo', args: { name: 'a.txt' } },
      { chatId: 'c', workspace },
    );
    expect(asked[0]?.args).toEqual({ name: 'a.txt', content: 'approved' });
    expect(outcome).toMatchObject({ outcome: 'ok', text: '{"name":"a.txt","content":"approved"}' });
  });

  it('pins alwaysAllow calls too, which the gate never sees', async () => {
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'pinned');
    const asked: ApprovalRequest[] = [];
    const core = testCore([pinning('pin_free', true)], {
      gate: policyGate((request) => (asked.push(request), { kind: 'allow', scope: 'once', by: 'person' })),
    });
    const outcome = await core.dispatcher.dispatch(
      { id: '1', name: 'pin_free', args: { name: 'a.txt' } },
      { chatId: 'c', workspace },
    );
    expect(outcome).toMatchObject({ outcome: 'ok', text: '{"name":"a.txt","content":"pinned"}' });
    expect(asked).toEqual([]);
  });

  it("a failed pin is that call's error outcome; the gate is not asked about it and the batch goes on", async () => {
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'fine');
    const asked: string[] = [];
    const core = testCore([pinning('pin_echo')], {
      gate: policyGate((request) => {
        asked.push(String(request.args.name));
        return { kind: 'allow', scope: 'once', by: 'person' };
      }),
    });
    const results = await core.executor.run(
      [
        { id: '1', name: 'pin_echo', args: { name: 'missing.txt' } },
        { id: '2', name: 'pin_echo', args: { name: 'a.txt' } },
      ],
      { chatId: 'c', workspace },
    );
    expect(results[0]?.outcome).toMatchObject({
      outcome: 'error',
      code: 'not_found',
      message: 'missing.txt is not there',
    });
    expect(results[1]?.outcome).toMatchObject({ outcome: 'ok' });
    expect(asked).toEqual(['a.txt']);
  });

  it('html_template: the approval shows the file and its includes, and a swap after it changes nothing', async () => {
    fs.mkdirSync(path.join(workspace, 't'));
    fs.writeFileSync(path.join(workspace, 't', 'page.liquid'), "<p>{% render './row.liquid' %}</p>");
    fs.writeFileSync(path.join(workspace, 't', 'row.liquid'), 'approved row');
    const asked: ApprovalRequest[] = [];
    const core = testCore([htmlTemplateTool], {
      gate: policyGate((request) => {
        asked.push(request);
        fs.writeFileSync(path.join(workspace, 't', 'page.liquid'), '{{ "evil" }}');
        fs.writeFileSync(path.join(workspace, 't', 'row.liquid'), 'evil row');
        return { kind: 'allow', scope: 'once', by: 'person' };
      }),
    });
    const outcome = await core.dispatcher.dispatch(
      { id: '1', name: 'html_template', args: { output: 'out.html', template_file: 't/page.liquid' } },
      { chatId: 'c', workspace },
    );
    expect(outcome).toMatchObject({ outcome: 'ok' });
    expect(asked[0]?.args).toEqual({
      output: 'out.html',
      template_file: 't/page.liquid',
      template: "<p>{% render './row.liquid' %}</p>",
      template_includes: { 't/row.liquid': 'approved row' },
    });
    expect(fs.readFileSync(path.join(workspace, 'out.html'), 'utf8')).toBe('<p>approved row</p>');
  });

  it('html_template: the model cannot hand in template_includes of its own', async () => {
    const core = testCore([htmlTemplateTool]);
    const outcome = await core.dispatcher.dispatch(
      {
        id: '1',
        name: 'html_template',
        args: { output: 'o.html', template: "{% include 'x' %}", template_includes: { x: 'forged' } },
      },
      { chatId: 'c', workspace },
    );
    expect(outcome).toMatchObject({ outcome: 'error', code: 'invalid_arguments' });
    expect(fs.existsSync(path.join(workspace, 'o.html'))).toBe(false);
  });
});
