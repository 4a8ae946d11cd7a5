import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../../tools/builtin/index';
import { lintTool } from './lint-tool';

// docs/tools.md, "Design rules": every built-in tool must pass the design rules; an error-level finding fails the build. Built-ins are
// linted strictly: the design page's musts (alternative in the When line, no filler, an example) are errors too.
describe('built-in tools', () => {
  const tools = builtinTools();

  it('are offered at all', () => {
    expect(tools.length).toBeGreaterThan(0);
  });

  it.each(tools.map((tool) => [tool.name, tool] as const))(
    '%s passes R1-R5 (strict) with no error finding',
    (_name, tool) => {
      const errors = lintTool({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        strict: true,
      }).filter((finding) => finding.level === 'error');
      const report = errors.map((finding) => `  ${finding.code}: ${finding.message}`).join('\n');
      expect(errors, `${tool.name} breaks the tool design rules:\n${report}`).toEqual([]);
    },
  );
});
