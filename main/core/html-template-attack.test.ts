// Attacks on html_template as a hostile model or repository would make them, through the real dispatcher (pinning,
// gate, limit) and the real worker: no template reaches Node, runs a program, reads outside the workspace,
// swaps what was approved, or hangs the app (docs/security.md, "html_template").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { htmlTemplateTool } from '../../tools/builtin/html-template';
import { testContext } from '../../tools/sdk/testing/tool-context';
import type { ToolSpec } from '../../tools/sdk/types';
import type { CallOutcome } from './outcome';
import { testCore } from './testing/test-core';

let root: string;
let workspace: string;
let outside: string;
let marker: string;
const canary = `canary-${process.pid}-${Date.now()}`;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-tpl-attack-'));
  workspace = path.join(root, 'workspace');
  outside = path.join(root, 'outside');
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.liquid'), `SECRET ${canary}`);
  fs.writeFileSync(path.join(root, 'secret.liquid'), `SECRET ${canary}`);
  marker = path.join(root, 'ran-a-program');
  process.env.AGENVOY_ATTACK_CANARY = canary;
});
afterEach(() => {
  delete process.env.AGENVOY_ATTACK_CANARY;
  fs.rmSync(root, { recursive: true, force: true });
});

/** One html_template call through the real dispatcher, allowed by policy; `limitMs` shortens the tool's limit. */
async function call(args: Record<string, unknown>, limitMs?: number): Promise<CallOutcome> {
  const spec: ToolSpec = limitMs ? { ...htmlTemplateTool, timeoutMs: limitMs } : htmlTemplateTool;
  const core = testCore([spec]);
  return core.dispatcher.dispatch({ id: '1', name: 'html_template', args }, { chatId: 'c', workspace });
}

/** The page a call wrote, or the error it gave; never anything of Node, the environment or outside files. */
async function attempt(template: string, data: Record<string, unknown> = {}): Promise<string> {
  const output = `out-${Math.random().toString(36).slice(2)}.html`;
  const outcome = await call({ output, template, data });
  const text =
    outcome.outcome === 'ok'
      ? fs.readFileSync(path.join(workspace, output), 'utf8')
      : `${outcome.outcome}: ${'message' in outcome ? outcome.message : ''}`;
  expect(['ok', 'error'], `${template} → ${text}`).toContain(outcome.outcome);
  return text;
}

// Data objects print as [object Object]; anything else of that form, or source text, came from Node.
const NODE_SIGNS = /native code|function\s*\w*\s*\(|\[object (?!Object\])|PATH=|HOME=/;

function assertNothingLeaked(template: string, text: string) {
  expect(text, template).not.toContain(canary);
  expect(text, template).not.toMatch(NODE_SIGNS);
  expect(text, template).not.toContain(String(process.pid));
  expect(fs.existsSync(marker), `${template} ran a program`).toBe(false);
}

describe('a template cannot reach Node', () => {
  it('prototype and constructor walks, globals and calls render nothing or fail to parse', async () => {
    const run = `touch ${marker}`;
    const templates = [
      '{{ range.constructor }}',
      '{{ x.constructor }}',
      '{{ x.constructor.constructor }}',
      '{{ x.constructor.name }}',
      '{{ x.constructor.prototype }}',
      '{{ rows.constructor.constructor.name }}',
      '{{ "a".constructor }}',
      '{{ 1.constructor }}',
      '{{ x.__proto__ }}',
      '{{ x["__proto__"] }}',
      '{{ x["constructor"]["constructor"] }}',
      '{{ x.__proto__.constructor.constructor }}',
      '{{ x.toString }}{{ x.valueOf }}{{ x.hasOwnProperty }}{{ x.__defineGetter__ }}',
      '{{ process }}{{ process.env }}{{ process.pid }}{{ process.mainModule }}',
      `{{ process.getBuiltinModule('child_process') }}`,
      '{{ global }}{{ global.process }}{{ globalThis }}{{ globalThis.process.env }}',
      '{{ require }}{{ module }}{{ exports }}{{ this }}{{ self }}{{ window }}',
      `{{ x.constructor.constructor("return process")() }}`,
      `{{ x.constructor.constructor("process.getBuiltinModule('child_process').execSync('${run}')")() }}`,
      `{{ "return process" | constructor }}`,
      `{{ "${run}" | execSync }}{{ "x" | eval }}{{ "x" | require }}{{ "x" | call: "y" }}`,
      '{% assign f = x.constructor %}{{ f.constructor }}{{ f.name }}',
      '{% for k in x.constructor %}{{ k }}{% endfor %}{% for r in rows %}{{ r.constructor }}{% endfor %}',
      '{% for i in (1..2) %}{{ forloop.constructor }}{{ forloop.constructor.constructor }}{% endfor %}',
      '{{ x | map: "constructor" }}{{ rows | map: "constructor" | map: "constructor" | join }}',
      '{{ rows | where: "constructor" }}{{ rows | sort: "__proto__" | join }}',
      '{{ x | json }}{{ x.constructor | json }}{{ process | json }}',
      '{{ x | inspect }}{{ x.constructor | inspect }}',
      '{% liquid\necho x.constructor\necho process.env\n%}',
      '{% capture c %}{{ x.constructor }}{% endcapture %}{{ c }}',
      '{% cycle x.constructor, process %}{% tablerow r in rows %}{{ r.constructor }}{% endtablerow %}',
      '{% increment process %}{% decrement constructor %}{{ constructor }}{{ __proto__ }}',
      `{% ${'require'} 'child_process' %}`,
      `{% include 'child_process' %}`,
      `{% render 'fs' %}`,
    ];
    for (const template of templates) {
      const text = await attempt(template, { x: { a: 1 }, rows: [{ n: 1 }] });
      assertNothingLeaked(template, text);
    }
  });

  it('data cannot pollute prototypes, and data is never run as a template', async () => {
    const data = JSON.parse(
      `{"__proto__": {"polluted": "yes", "toString": "x"}, "constructor": {"prototype": {"p2": "yes"}}, ` +
        `"code": "{{ process.env }}{% include '../secret.liquid' %}"}`,
    ) as Record<string, unknown>;
    const text = await attempt(
      '{{ polluted }}|{{ p2 }}|{{ code }}|{{ code | raw }}|{{ x.polluted }}|{{ constructor.prototype.p2 }}',
      { ...data, x: {} },
    );
    expect(text).toBe(
      "||{{ process.env }}{% include &#39;../secret.liquid&#39; %}|{{ process.env }}{% include '../secret.liquid' %}||yes",
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).p2).toBeUndefined();
    assertNothingLeaked('data', text);
  });

  it('data is escaped (once) unless the template ends it with | raw', async () => {
    const text = await attempt(
      '{{ s }}|{{ s | upcase }}|{{ s | raw | upcase }}|{{ s | escape }}|{{ s | raw }}|{{ a | join: s }}|{{ s | escape | raw }}|{{ s | escape_once }}',
      { s: `<img src=x onerror="alert('1')">&`, a: ['1', '2'] },
    );
    expect(text).toBe(
      '&lt;img src=x onerror=&#34;alert(&#39;1&#39;)&#34;&gt;&amp;|' +
        '&lt;IMG SRC=X ONERROR=&#34;ALERT(&#39;1&#39;)&#34;&gt;&amp;|' +
        '&lt;IMG SRC=X ONERROR=&#34;ALERT(&#39;1&#39;)&#34;&gt;&amp;|' +
        '&lt;img src=x onerror=&#34;alert(&#39;1&#39;)&#34;&gt;&amp;|' +
        `<img src=x onerror="alert('1')">&|` +
        '1&lt;img src=x onerror=&#34;alert(&#39;1&#39;)&#34;&gt;&amp;2|' +
        '&lt;img src=x onerror=&#34;alert(&#39;1&#39;)&#34;&gt;&amp;|' +
        '&lt;img src=x onerror=&#34;alert(&#39;1&#39;)&#34;&gt;&amp;',
    );
  });
});

describe('includes cannot leave the workspace', () => {
  it('../, absolute paths, backslashes, symlinks, special files and module names read nothing outside', async () => {
    fs.symlinkSync(outside, path.join(workspace, 'link'));
    fs.symlinkSync(path.join(outside, 'secret.liquid'), path.join(workspace, 'leak.liquid'));
    fs.symlinkSync(path.join(root, 'nowhere'), path.join(workspace, 'dangling.liquid'));
    fs.mkdirSync(path.join(workspace, 'sub'));
    fs.mkdirSync(path.join(workspace, 'folder.liquid'));
    if (process.platform !== 'win32') {
      const { execFileSync } = await import('node:child_process');
      execFileSync('mkfifo', [path.join(workspace, 'fifo.liquid')]);
    }
    const rel = path.relative(workspace, path.join(root, 'secret.liquid'));
    const templates = [
      `{% include '../secret.liquid' %}`,
      `{% include './../secret.liquid' %}`,
      `{% include 'sub/../../secret.liquid' %}`,
      `{% include '${rel}' %}`,
      `{% render '../outside/secret.liquid' %}`,
      `{% include '${path.join(root, 'secret.liquid')}' %}`,
      `{% include '/etc/passwd' %}`,
      `{% render '/proc/self/environ' %}`,
      `{% layout '/etc/hostname' %}x`,
      `{% include '..\\\\secret.liquid' %}`,
      `{% include 'link/secret.liquid' %}`,
      `{% render 'leak.liquid' %}`,
      `{% include 'dangling.liquid' %}`,
      `{% include 'folder.liquid' %}`,
      `{% include 'fifo.liquid' %}`,
      `{% include 'child_process' %}{% include 'liquidjs' %}{% include 'node:fs' %}`,
      `{% include '__proto__' %}{% include 'constructor' %}`,
      `{% include file %}`,
      `{% include "{{ file }}" %}`,
      `{% liquid\ninclude '../secret.liquid'\n%}`,
    ];
    for (const template of templates) {
      const started = Date.now();
      const text = await attempt(template, { file: '../secret.liquid' });
      assertNothingLeaked(template, text);
      expect(text, template).not.toContain('SECRET');
      expect(text, template).not.toMatch(/root:|PATH=/);
      expect(Date.now() - started, `${template} hung`).toBeLessThan(10_000);
    }
  });

  it('a template_file that is, or goes through, a symlink out of the workspace is refused', async () => {
    fs.symlinkSync(outside, path.join(workspace, 'link'));
    fs.symlinkSync(path.join(outside, 'secret.liquid'), path.join(workspace, 'report.liquid'));
    for (const template_file of ['report.liquid', 'link/secret.liquid', '../secret.liquid', '/etc/passwd']) {
      const outcome = await call({ output: 'o.html', template_file });
      expect(outcome, template_file).toMatchObject({ outcome: 'error' });
      expect(JSON.stringify(outcome)).not.toContain(canary);
    }
    expect(fs.existsSync(path.join(workspace, 'o.html'))).toBe(false);
  });

  it('an include found in the workspace and swapped for a symlink after approval is not read again', async () => {
    fs.writeFileSync(path.join(workspace, 'page.liquid'), "[{% include 'part.liquid' %}]");
    fs.writeFileSync(path.join(workspace, 'part.liquid'), 'approved');
    const pin = htmlTemplateTool.pinArguments;
    if (!pin) throw new Error('html_template must pin');
    const pinned = await pin(
      { output: 'o.html', template_file: 'page.liquid' },
      { workspace, signal: new AbortController().signal },
    );
    fs.rmSync(path.join(workspace, 'part.liquid'));
    fs.symlinkSync(path.join(outside, 'secret.liquid'), path.join(workspace, 'part.liquid'));
    fs.rmSync(path.join(workspace, 'page.liquid'));
    fs.symlinkSync(path.join(outside, 'secret.liquid'), path.join(workspace, 'page.liquid'));
    const core = testCore([htmlTemplateTool]);
    const ready = core.dispatcher.prepare(
      { id: '1', name: 'html_template', args: pinned },
      {
        chatId: 'c',
        workspace,
      },
    );
    // prepare() refuses the pinned key (the model could not send it); the handler alone shows the render.
    expect(ready.kind).toBe('done');
    await htmlTemplateTool.handler(pinned, testContext({ workspace }).ctx);
    expect(fs.readFileSync(path.join(workspace, 'o.html'), 'utf8')).toBe('[approved]');
  });
});

describe('a template cannot hang or exhaust the app', () => {
  // A 5 s limit: the render gets 3.5 s and must end with its own clear error before the limit cuts it.
  const LIMIT = 5000;

  it('huge loops, ranges, recursion and string bombs end with a clear error inside the limit', async () => {
    const part = (name: string, text: string) => fs.writeFileSync(path.join(workspace, name), text);
    part('self.liquid', "{% include 'self.liquid' %}");
    part('a.liquid', "a{% render 'b.liquid' %}");
    part('b.liquid', "b{% render 'a.liquid' %}");
    // Each level renders the next twice: 2^40 renders in all.
    for (let i = 0; i < 40; i++)
      part(`f${i}.liquid`, `{% include 'f${i + 1}.liquid' %}{% include 'f${i + 1}.liquid' %}`);
    part('f40.liquid', 'x');
    const cases: Array<[string, RegExp]> = [
      ['{% for i in (1..2000000000) %}{{ i }}{% endfor %}', /memory alloc limit exceeded/],
      ['{% for i in (1..20000000) %}{{ i }}{% endfor %}', /limit exceeded|took longer/],
      [
        '{% for a in rows %}{% for b in rows %}{% for c in rows %}{{ c }}{% endfor %}{% endfor %}{% endfor %}',
        /limit exceeded|took longer/,
      ],
      ['{% for i in (1..5000) %}{% for j in (1..5000) %}{% endfor %}{% endfor %}', /render limit exceeded/],
      [
        '{% for i in (1..9000000) %}{% endfor %}{% for i in (1..9000000) %}{% endfor %}{% for i in (1..9000000) %}{% endfor %}{% for i in (1..9000000) %}{% endfor %}',
        /memory alloc limit exceeded|render limit|took longer/,
      ],
      ['{% tablerow i in (1..20000000) %}{{ i }}{% endtablerow %}', /limit exceeded|took longer/],
      // Recursion to the stack's end takes about a second alone; on a loaded machine the time limit may come first.
      ["{% include 'self.liquid' %}", /include each other too deeply|took longer/],
      ["{% render 'a.liquid' %}", /include each other too deeply|took longer/],
      ["{% include 'f0.liquid' %}", /render limit exceeded|took longer/],
      [
        '{% assign s = "xxxxxxxxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
        /memory alloc limit exceeded/,
      ],
      [
        '{% capture s %}xxxxxxxxxxxxxxxx{% endcapture %}{% for i in (1..40) %}{% capture s %}{{ s | raw }}{{ s | raw }}{% endcapture %}{% endfor %}{{ s | size }}',
        /string too long|memory|took longer/,
      ],
      ['{% for i in (1..100000) %}{{ big | raw }}{% endfor %}', /output limit exceeded/],
      [
        '{{ big | split: "" | join: "," | split: "," | sort | reverse | join }}{% for i in (1..30) %}{{ big | split: "" | sort | join | raw }}{% endfor %}',
        /./,
      ],
    ];
    for (const [template, expected] of cases) {
      const started = Date.now();
      const data = { big: 'y'.repeat(1000), rows: Array.from({ length: 1000 }, () => 0) };
      const outcome = await call({ output: 'dos.html', template, data }, LIMIT);
      const took = Date.now() - started;
      expect(took, `${template} took ${took} ms`).toBeLessThan(LIMIT + 3000);
      if (outcome.outcome === 'ok') {
        // Only the last case may finish: its work is bounded by the memory count.
        expect(template).toContain('sort');
        fs.rmSync(path.join(workspace, 'dos.html'));
        continue;
      }
      expect(outcome, template).toMatchObject({ outcome: 'error', code: 'template_error' });
      expect('message' in outcome ? outcome.message : '', template).toMatch(expected);
      expect(fs.existsSync(path.join(workspace, 'dos.html')), template).toBe(false);
    }
  }, 120_000);

  it('templates too big to parse safely are refused before any parser sees them', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ template: '{{ x }}'.repeat(25_000) }, /more than 20,000 tags/],
      [{ template: `{% liquid\n${'echo x\n'.repeat(25_000)}%}` }, /more than 20,000 tags/],
    ];
    fs.writeFileSync(path.join(workspace, 'big.liquid'), 'x'.repeat(1024 * 1024 + 1));
    cases.push([{ template_file: 'big.liquid' }, /larger than 1,048,576 bytes/]);
    for (let i = 0; i < 70; i++) fs.writeFileSync(path.join(workspace, `p${i}.liquid`), `p${i}`);
    cases.push([
      { template: Array.from({ length: 70 }, (_, i) => `{% include 'p${i}.liquid' %}`).join('') },
      /more than 64 templates/,
    ]);
    for (let i = 0; i < 3; i++)
      fs.writeFileSync(path.join(workspace, `t${i}.liquid`), '{{ x }}'.repeat(19_000));
    cases.push([
      { template: "{% include 't0.liquid' %}{% include 't1.liquid' %}{% include 't2.liquid' %}" },
      /more than 50,000 tags/,
    ]);
    for (const [args, expected] of cases) {
      const started = Date.now();
      const outcome = await call({ output: 'big.html', ...args });
      expect(outcome, JSON.stringify(args).slice(0, 80)).toMatchObject({ outcome: 'error' });
      expect('message' in outcome ? outcome.message : '').toMatch(expected);
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });

  it('with the real 30 s limit, a huge loop ends with a clear error in time and the app stays responsive', async () => {
    let worstGap = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      worstGap = Math.max(worstGap, Date.now() - last);
      last = Date.now();
    }, 20);
    const started = Date.now();
    try {
      // A billion turns over data: no range to count against the memory limit, only time stops it.
      const outcome = await call({
        output: 'loop.html',
        template:
          '{% for a in rows %}{% for b in rows %}{% for c in rows %}{% endfor %}{% endfor %}{% endfor %}',
        data: { rows: Array.from({ length: 1000 }, () => 0) },
      });
      expect(outcome).toMatchObject({
        outcome: 'error',
        code: 'template_error',
        message: expect.stringMatching(/render limit exceeded|took longer/),
      });
    } finally {
      clearInterval(ticker);
    }
    expect(Date.now() - started).toBeLessThan(30_000);
    // The render runs in a worker: the app's own thread never stalls behind it.
    expect(worstGap).toBeLessThan(1000);
    expect(fs.existsSync(path.join(workspace, 'loop.html'))).toBe(false);
  }, 45_000);
});
