// The shape of a design-rule finding (docs/tools.md, "Design rules").

/** error findings fail the build for built-ins; guidance findings are advice. */
export type LintLevel = 'error' | 'guidance';

/** One finding of the design-rule linter; `code` starts with its rule (R1_…, R2_…). */
export interface LintFinding {
  code: string;
  level: LintLevel;
  message: string;
}

/** What the linter reads of a tool. */
export interface LintInput {
  /** The name the author chose (without `script_` / `mcp__server__`). */
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /**
   * Built-ins: the rules the design page states as musts but docs/tools.md ("Design rules") leaves as guidance (R2_NO_ALTERNATIVE,
   * R2_FILLER, R3_NO_EXAMPLE) are errors. Script and MCP tools get them as guidance.
   */
  strict?: boolean;
}
