import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { htmlTemplateTool } from './html-template';
import { testContext } from '../sdk/testing/tool-context';
import type { ToolContext } from '../sdk/types';

let workspace: string;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-html-'));
});
afterEach(() => {
  fs.rmSync(workspace, { recursive: true, force: true });
});

const run = (args: Record<string, unknown>, overrides: Partial<ToolContext> = {}) =>
  Promise.resolve(htmlTemplateTool.handler(args, testContext({ workspace, ...overrides }).ctx));
const read = (file: string) => fs.readFileSync(path.join(workspace, file), 'utf8');

describe('html_template', () => {
  it('renders an inline template with escaped data into the workspace and returns the path', async () => {
    const result = await run({
      output: 'reports/sales.html',
      template: '<h1>{{ title }}</h1>{% for r in rows %}<p>{{ r.name }}</p>{% endfor %}{{ trusted | raw }}',
      data: {
        title: 'Sales <Q1>',
        rows: [{ name: '<script>alert(1)</script>' }, { name: 'Tom & Jerry' }],
        trusted: '<hr>',
      },
    });
    const file = path.join(workspace, 'reports', 'sales.html');
    expect(read('reports/sales.html')).toBe(
      '<h1>Sales &lt;Q1&gt;</h1><p>&lt;script&gt;alert(1)&lt;/script&gt;</p><p>Tom &amp; Jerry</p><hr>',
    );
    expect(result).toMatchObject({ data: { path: file, bytes: fs.statSync(file).size } });
    expect(typeof result === 'string' ? result : result.content[0]).toMatchObject({
      text: expect.stringContaining(file),
    });
  });

  it('renders a template file with a layout and includes, with data from a JSON file merged under data', async () => {
    fs.mkdirSync(path.join(workspace, 'templates', 'parts'), { recursive: true });
    fs.writeFileSync(
      path.join(workspace, 'templates', 'base.liquid'),
      '<main>{% block body %}{% endblock %}</main>',
    );
    fs.writeFileSync(path.join(workspace, 'templates', 'parts', 'total.liquid'), '{{ total }}');
    fs.writeFileSync(
      path.join(workspace, 'templates', 'report.liquid'),
      "{% layout 'templates/base.liquid' %}{% block body %}{{ title }}: {% render './parts/total.liquid', total: total %}{% endblock %}",
    );
    fs.writeFileSync(path.join(workspace, 'numbers.json'), JSON.stringify({ title: 'from file', total: 42 }));
    await run({
      output: 'out.html',
      template_file: 'templates/report.liquid',
      data_file: 'numbers.json',
      data: { title: 'A&B' },
    });
    expect(read('out.html')).toBe('<main>A&amp;B: 42</main>');
  });

  it('pins the template file and what it includes into the arguments, and renders only those', async () => {
    fs.mkdirSync(path.join(workspace, 'templates'));
    fs.writeFileSync(
      path.join(workspace, 'templates', 'report.liquid'),
      "<h1>{% include 'templates/head.liquid' %}</h1>",
    );
    fs.writeFileSync(path.join(workspace, 'templates', 'head.liquid'), 'approved head');
    const pin = htmlTemplateTool.pinArguments;
    if (!pin) throw new Error('html_template must pin its template');
    const args = await pin(
      { output: 'r.html', template_file: 'templates/report.liquid' },
      { workspace, signal: new AbortController().signal },
    );
    expect(args).toEqual({
      output: 'r.html',
      template_file: 'templates/report.liquid',
      template: "<h1>{% include 'templates/head.liquid' %}</h1>",
      template_includes: { 'templates/head.liquid': 'approved head' },
    });
    // Swapped after the approval: what renders is still what was approved.
    fs.writeFileSync(path.join(workspace, 'templates', 'report.liquid'), 'SWAPPED');
    fs.writeFileSync(path.join(workspace, 'templates', 'head.liquid'), 'SWAPPED');
    await run(args);
    expect(read('r.html')).toBe('<h1>approved head</h1>');
  });

  it('a template file may render itself for nested data', async () => {
    fs.writeFileSync(
      path.join(workspace, 'tree.liquid'),
      "<li>{{ node.name }}{% if node.kids %}<ul>{% for kid in node.kids %}{% render 'tree.liquid', node: kid %}{% endfor %}</ul>{% endif %}</li>",
    );
    const node = { name: 'a', kids: [{ name: 'b', kids: [{ name: 'c<' }] }, { name: 'd' }] };
    await run({ output: 'tree.html', template_file: 'tree.liquid', data: { node } });
    expect(read('tree.html')).toBe('<li>a<ul><li>b<ul><li>c&lt;</li></ul></li><li>d</li></ul></li>');
  });

  it('refuses to overwrite unless asked', async () => {
    await run({ output: 'r.html', template: 'one' });
    await expect(run({ output: 'r.html', template: 'two' })).rejects.toMatchObject({ code: 'exists' });
    await run({ output: 'r.html', template: 'two', overwrite: true });
    expect(read('r.html')).toBe('two');
  });

  it('rejects bad input naming the parameter, writing nothing', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ template: 'x' }, 'invalid_arguments', /^`output` must be a non-empty string/],
      [
        { output: '../escape.html', template: 'x' },
        'invalid_arguments',
        /^`output` must stay inside the workspace/,
      ],
      [{ output: 'a.html' }, 'invalid_arguments', /^give exactly one of `template` and `template_file`/],
      [
        { output: 'a.html', template: 'x', template_file: 'y.liquid' },
        'invalid_arguments',
        /^give exactly one of `template` and `template_file`/,
      ],
      [
        { output: 'a.html', template_file: '../../etc/passwd' },
        'invalid_arguments',
        /^`template_file` must stay inside the workspace/,
      ],
      [
        { output: 'a.html', template_file: 'missing.liquid' },
        'not_found',
        /^`template_file` missing.liquid does not exist/,
      ],
      [
        { output: 'a.html', template: 'x', data: [1, 2] },
        'invalid_arguments',
        /^`data` must be a JSON object/,
      ],
      [
        { output: 'a.html', template: 'x', data_file: 'missing.json' },
        'not_found',
        /^`data_file` .*does not exist/,
      ],
    ];
    for (const [args, code, message] of cases) {
      await expect(run(args), JSON.stringify(args)).rejects.toMatchObject({
        code,
        message: expect.stringMatching(message),
      });
    }
    fs.writeFileSync(path.join(workspace, 'list.json'), '[1, 2]');
    await expect(run({ output: 'a.html', template: 'x', data_file: 'list.json' })).rejects.toThrow(
      /^`data_file` must hold a JSON object/,
    );
    expect(fs.readdirSync(workspace)).toEqual(['list.json']);
  });

  it('reports a template error with its message', async () => {
    await expect(run({ output: 'a.html', template: '{% for x in %}' })).rejects.toMatchObject({
      code: 'template_error',
      message: expect.stringMatching(/^the template failed: .+/),
    });
    expect(fs.existsSync(path.join(workspace, 'a.html'))).toBe(false);
  });

  it('stops a runaway render on abort (the worker is terminated) and writes nothing', async () => {
    const controller = new AbortController();
    const render = run(
      { output: 'slow.html', template: '{% for i in (1..20000000) %}{{ i }}{% endfor %}' },
      { signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const t0 = Date.now();
    controller.abort(new Error('timed out after 30 s'));
    await expect(render).rejects.toThrow('timed out after 30 s');
    expect(Date.now() - t0).toBeLessThan(3000);
    // The event loop was never blocked by the render, and nothing is left to write the file later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.existsSync(path.join(workspace, 'slow.html'))).toBe(false);
  });
});
