// How the model finds, loads and calls tools it knows only by name (docs/tools.md, "Tool discovery"), for reasoning_guide.

/** The find_tools / run_tool workflow, for a model that is unsure how to reach a tool. */
export const TOOL_DISCOVERY_GUIDE = `# Tool discovery guide

## What you can see

You get full schemas only for a fixed set of tools (find_tools, run_tool, reasoning_guide,
write_todo, chat_history, ask_user, write_result) and for the tools this chat has loaded. Every other
tool is known to you by name only: the names are listed in run_tool's description, and past a budget
the rest is summarised by source with a count.

## Finding a tool

- find_tools with mode "search" and a query in plain words ("convert a PDF to text", "open a github
  issue") returns ranked matches with their full schemas, flags and timeout. Describe the intent: the
  action and its object work better than a guessed tool name.
- The schemas it returns are loaded into this chat: from then on call those tools directly.
- query "select:name_a,name_b" loads exact names you already know, for example from run_tool's list.
  Load several at once rather than one per round.
- find_tools with mode "list" gives every name and its first description line; add system true to
  include internal system tools such as store_secret.
- Nothing fits? Rephrase the query once with other words for the action; then tell the user what is
  missing rather than improvising with an unrelated tool.

## Calling a tool

- Call a loaded tool directly, or call run_tool with name and args. run_tool is unwrapped at once: the
  inner tool's validation, approval, flags and timeout apply exactly as for a direct call.
- You may call a tool you know only by name, directly or through run_tool: its schema is loaded, and
  if your arguments match it the call runs at once. If they do not, it is not executed: the schema
  comes back with what was wrong. Read it and call again with the right arguments.
- Loaded schemas stay loaded for the rest of the chat; do not search for them again.

## Reading flags

- alwaysAllow: runs without asking the user. Any other tool waits for the user's approval, and the
  user may deny it (with a reason you receive) or stop the turn.
- concurrent: safe to call in parallel with other calls in the same batch.
- background: returns a task id at once; check on the task later instead of waiting.
- timeoutMs: the call's limit (null: none). A timed-out call is stopped; retry with a smaller job
  rather than the same one.
`;
