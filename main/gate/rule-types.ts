// Approval rules (docs/security.md, "Decisions and rules"): a tool glob, an optional argument pattern, an effect, and where the rule came from.

/** What a rule does to the calls it matches. */
export type RuleEffect = 'allow' | 'deny';

/** A rule as it is stored in approval-rules.json. */
export interface StoredRule {
  id: string;
  /** Tool-name glob (`run_command`, `mcp__github__*`). */
  tool: string;
  /** Glob over the canonical argument; null matches any arguments. */
  pattern: string | null;
  /** Globs over the canonical argument that void the match (a default `git log **` excepts `--output`). */
  except: string[];
  effect: RuleEffect;
  /** ISO time of creation. */
  createdAt: string;
  /** Per tool name, the definition hash this rule approved; a tool met for the first time is bound then. */
  definitions: Record<string, string>;
  /**
   * The `${secret:NAME}` names an allow rule may send: those of the calls a person approved with it. A call that
   * fills in any other secret is not covered and asks (docs/security.md, "Decisions and rules"). Absent: none.
   */
  secrets?: string[];
}

/** A rule that ships with the app: visible, revocable, for built-in tools only. */
export interface DefaultRule {
  id: string;
  tool: string;
  pattern: string | null;
  except: string[];
  effect: 'allow';
  /** Why the rule is safe, shown next to it. */
  note: string;
  /**
   * What the rule really allows (docs/security.md): a predicate over the argv that will run, after the shell's
   * quote removal. `pattern` and `except` only summarise it for people; a command rule without it allows nothing.
   */
  accepts?: (argv: readonly string[]) => boolean;
  /**
   * The words of an accepted argv that may name paths (docs/security.md): each must lead inside the workspace, or
   * the call asks. Absent: the rule accepts no operand that could (`pwd`, `whoami`, `git branch`).
   */
  operands?: (argv: readonly string[]) => string[];
}

/** A rule in force: a shipped default or one the user made. */
export type ApprovalRule = ({ origin: 'default' } & DefaultRule) | ({ origin: 'user' } & StoredRule);

/** A rule as listed by the API and `agenvoy rules list`. */
export interface RuleView {
  id: string;
  origin: 'default' | 'user';
  tool: string;
  pattern: string | null;
  except: string[];
  effect: RuleEffect;
  /** ISO time of creation; null for a shipped default. */
  createdAt: string | null;
  /** The rule no longer applies to some tool because its definition changed since it was approved. */
  void: boolean;
  /** The tools whose definition changed since this rule approved them. */
  changedTools: string[];
  /** The tool definitions this rule is bound to (tool name → definition hash). */
  definitions: Record<string, string>;
  note: string | null;
}

/** What a caller gives to add a rule. */
export interface NewRule {
  tool: string;
  pattern?: string | null;
  except?: string[];
  effect: RuleEffect;
  /** Definitions approved now (tool name → hash); tools not listed are bound when first met. */
  definitions?: Record<string, string>;
  /** The secrets the approved call sends (see StoredRule.secrets); merged into an identical rule. */
  secrets?: string[];
}
