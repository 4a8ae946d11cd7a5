// The one guide to the tool design rules R1–R5 and to writing a script tool (docs/tools.md, "Design rules" and "Script tools"). reasoning_guide
// returns it to the model and the MCP server mode serves it as tool_generate_guide, so both read the same text.

const FENCE = '```';

/** The worked example's tool.json, kept as data so the guide always shows valid JSON that passes the linter. */
export const EXAMPLE_TOOL_JSON = {
  name: 'convert_units',
  description:
    'Convert a length, weight or temperature value from one unit to another.\n' +
    'Use when a measurement must be shown in another unit; use convert_currency for money.\n' +
    'Both units must measure the same quantity.',
  parameters: {
    type: 'object',
    properties: {
      value: {
        type: 'number',
        description: 'The amount to convert, in the unit given by from; any finite number. Example: 12.5',
      },
      from: {
        type: 'string',
        enum: ['m', 'km', 'mi', 'ft', 'kg', 'lb', 'c', 'f'],
        description:
          'Unit of value: m, km, mi, ft (length), kg, lb (weight), c, f (degrees Celsius, Fahrenheit). Example: "mi"',
      },
      to: {
        type: 'string',
        enum: ['m', 'km', 'mi', 'ft', 'kg', 'lb', 'c', 'f'],
        description:
          'Unit to convert into, same quantity as from: m, km, mi, ft, kg, lb, c or f. Example: "km"',
      },
      precision: {
        type: 'integer',
        minimum: 0,
        maximum: 10,
        default: 2,
        description: 'Decimal places in the result, 0-10; raise it for small values. Example: 4',
      },
    },
    required: ['value', 'from', 'to'],
    additionalProperties: false,
  },
  always_allow: true,
  concurrent: true,
  timeout: 10,
  secrets: [],
} as const;

/** The worked example's script.js: plain Node, no dependencies, CommonJS- and ESM-safe (no import/require). */
export const EXAMPLE_SCRIPT_JS = `// convert_units: reads its arguments as JSON on stdin, prints the result on stdout.
const FACTORS = {
  m: ['length', 1],
  km: ['length', 1000],
  mi: ['length', 1609.344],
  ft: ['length', 0.3048],
  kg: ['weight', 1],
  lb: ['weight', 0.45359237],
};
const TEMPERATURES = ['c', 'f'];

function convert(value, from, to) {
  if (TEMPERATURES.includes(from) && TEMPERATURES.includes(to)) {
    const celsius = from === 'f' ? ((value - 32) * 5) / 9 : value;
    return to === 'f' ? (celsius * 9) / 5 + 32 : celsius;
  }
  const source = FACTORS[from];
  const target = FACTORS[to];
  if (!source && !TEMPERATURES.includes(from)) throw new Error('unknown unit in from: ' + from);
  if (!target && !TEMPERATURES.includes(to)) throw new Error('unknown unit in to: ' + to);
  if (!source || !target || source[0] !== target[0]) {
    throw new Error('cannot convert ' + from + ' to ' + to + ': they measure different quantities');
  }
  return (value * source[1]) / target[1];
}

async function main() {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const args = JSON.parse(input.trim() || '{}');
  // The schema declares defaults, but a caller may still omit a value or send null: defend anyway.
  if (typeof args.value !== 'number' || !Number.isFinite(args.value)) {
    throw new Error('value must be a finite number, e.g. 12.5');
  }
  const precision = Number.isInteger(args.precision) ? Math.min(Math.max(args.precision, 0), 10) : 2;
  const result = convert(args.value, String(args.from), String(args.to));
  console.log(args.value + ' ' + args.from + ' = ' + result.toFixed(precision) + ' ' + args.to);
}

main().catch((error) => {
  // A non-zero exit turns stderr into the result "script error: <stderr>", which the model reads.
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
`;

const RULES = `# Tool generation guide

Every tool (built-in, script or MCP) is checked against five design rules. Built-in tools must pass
them with no error finding. Script and MCP tools are linted when they load; they still load, and their
findings are shown to the user (the tools panel, \`agenvoy tools lint\`). The rules apply to the name the
author chose, without the \`script_\` or \`mcp__<server>__\` prefix.

Each finding has a stable code that starts with its rule (R1_..., R2_...), a level and a message that
says how to fix it. Level error = a checked rule is broken; level guidance = advice.

## R1 Name: the primary semantic carrier

The model chooses a tool by its name alone: before it loads a schema with find_tools, every tool
outside the fixed set is only a name in a list. A name that does not say what the tool does is a tool
the model will not pick, or will pick for the wrong job.

Checked (error):
- snake_case: ^[a-z][a-z0-9]*(_[a-z0-9]+)*$ (lowercase letters, digits, single underscores).
- At most 64 characters.
- Does not start with a generic verb: process, handle, manage, execute, perform, dispatch, do.

Guidance: verb + noun (read_file, search_web, convert_units), consistent with sibling names
(read_file / write_file, not read_file / file_writer).

Good: search_web, read_pdf_text, convert_units, list_calendar_events
Bad: WebSearch and web-search (not snake_case), process_data, handle_request, do_task (generic verb:
say what happens), weather (no verb: get_weather_forecast)

## R2 Description: What / When / Precondition

2 or 3 lines separated by \\n, 60-200 characters in total (newlines not counted):
1. What: the core action, starting with a verb.
2. When: the trigger and the alternative, e.g. "Use for X; use Y for Z". This line must contain
   "use for", "use when", "use to" or "when". The trigger and the comparison with sibling tools are
   required content, not noise: a description that states only the core action, with no trigger
   signal, is incomplete.
3. Precondition: the key limitation (needs a key, only local files, at most 100 rows). Omit the
   line when there is none.

Checked (error): the line count (2 or 3, none empty), the length, a trigger in line 2, no markdown
emphasis (**bold**, *italic*, __bold__, _italic_) or headings (# at a line's start), no dumped output
schema ("Returns: {...}", JSON with quoted keys, "output schema"). Identifiers such as find_tools and
backquoted code are fine.
Guidance: no filler ("This tool ...", "allows you to", "simply", "powerful", "very"); line 2 names
an alternative.

Good (3 lines, 185 characters):
  Fetch a web page and return its readable text without scripts or styling.
  Use when you already have a URL; use search_web when you only have a topic.
  Pages behind a login come back empty.

Good (2 lines, no precondition):
  Convert an amount of money between two currencies at today's reference rate.
  Use for prices and totals; use convert_units for lengths, weights and temperatures.

Bad:
  **Web tool**: This powerful tool helps you with web pages.
  Returns: {"title": string, "text": string}
(markdown, filler, no trigger, an output schema dump; the model still does not know when to pick it)

## R3 Parameter descriptions: How / When / Example

Each parameter description covers How (type, unit, the meaning of each enum value), When (when to
set it, or when the default is right) and an Example.

Checked (error): every parameter has a description, including the properties of nested objects and of
objects inside arrays; for object, array and enum parameters it is at least 20 characters.
Guidance: an example ("Example: 120", e.g. "report.pdf"); an enum description names its values.

Good:
  "timeout": {"type": "integer", "minimum": 1, "maximum": 300, "default": 60,
    "description": "Request limit in seconds, 1-300; raise it for slow APIs. Example: 120"}
  "mode": {"type": "string", "enum": ["search", "list"], "default": "search",
    "description": "search: ranked matches for query; list: every tool name. Example: \\"list\\""}
Bad:
  "mode": {"type": "string", "enum": ["search", "list"], "description": "The mode"}
  "files": {"type": "array", "items": {"type": "object", "properties": {"path": {"type": "string"}}}}

## R4 English only

Names and every description are in English. Checked (error): no letters outside the Latin script
(Han, kana, Hangul, Cyrillic, Greek, Arabic, ...). Accented Latin such as "café" is fine. Other
languages appear only in the user-facing messages a handler returns.

## R5 Defaults

Checked (error): every optional top-level parameter declares "default"; a required one does not.
The default documents what the handler does when the value is missing. The handler still defends
against a missing or null value: a caller may omit it or send null whatever the schema says.

  "properties": {
    "query": {"type": "string", "description": "..."},
    "limit": {"type": "integer", "default": 10, "description": "..."}
  },
  "required": ["query"]

## Finding codes

error: R1_NOT_SNAKE_CASE, R1_TOO_LONG, R1_GENERIC_VERB, R2_EMPTY, R2_LINE_COUNT, R2_EMPTY_LINE,
R2_TOO_SHORT, R2_TOO_LONG, R2_NO_TRIGGER, R2_MARKDOWN, R2_OUTPUT_SCHEMA, R3_MISSING_DESCRIPTION,
R3_TOO_SHORT, R4_NON_ENGLISH, R5_MISSING_DEFAULT, R5_REQUIRED_HAS_DEFAULT
guidance: R1_VERB_NOUN, R2_FILLER, R2_NO_ALTERNATIVE, R3_NO_EXAMPLE, R3_ENUM_UNEXPLAINED
`;

const SCRIPT_TOOLS = `# Writing a script tool

## Where it lives

One folder per tool:
- $AGENVOY_HOME/tools/script/<folder>/ for every workspace ($AGENVOY_HOME defaults to ~/.config/agenvoy)
- <workspace>/.config/agenvoy/tools/script/<folder>/ for one project; it overrides a global tool of
  the same name.

A folder holds tool.json and either script.js (run with node) or script.py (run with python3).
Folders whose name starts with _ or . are skipped. The folders are watched: a tool dropped in,
changed or removed is picked up within seconds. A broken folder is reported with the file and the
reason; the other tools still load.

## tool.json

- name: the tool's name under R1; it is registered as script_<name>, so do not add script_ yourself.
- description: R2.
- parameters: a JSON Schema object ({"type": "object", "properties": {...}, "required": [...]}),
  under R3-R5. Arguments are validated against it before the script runs.
- always_allow: true skips the user's approval. Only for read-only tools. Default false.
- concurrent: true lets calls run in parallel with other calls of a batch. Only when the tool has no
  side effects AND its upstream (API, server) allows parallel calls. Default false.
- timeout: the limit in seconds, also the dispatch limit. Default 900 (15 minutes).
- secrets: key names (e.g. ["OPENWEATHER_API_KEY"]), each passed to the script as an environment
  variable of the same name. Never put a secret value in tool.json.

## How it runs

- The arguments arrive as one JSON object on stdin; read stdin to its end.
- Exit 0: stdout is the result. Print only the result there.
- Non-zero exit: the result is "script error: <stderr>". Make stderr one clear line the model can act on
  (what failed, which argument, what to do).
- The script runs in its own process group: on timeout or cancel every process it started is killed
  (SIGTERM, then SIGKILL after 500 ms), and the model gets a "timed out" result.
- Output is capped at 1 MiB; the rest is cut with a note. Summarise or page large results.
- A long run shows its elapsed time against the limit in the app and its log.

## Worked example: convert_units

tool.json:
${FENCE}json
${JSON.stringify(EXAMPLE_TOOL_JSON, null, 2)}
${FENCE}

script.js:
${FENCE}js
${EXAMPLE_SCRIPT_JS}${FENCE}

Try it: echo '{"value": 10, "from": "km", "to": "mi"}' | node script.js
prints "10 km = 6.21 mi". Then run \`agenvoy tools lint\` and fix every error finding.

## The same in Python (script.py)

${FENCE}python
import json
import sys


def main():
    args = json.loads(sys.stdin.read() or "{}")
    value = args.get("value")
    # Defend against a missing or null value even when the schema has a default.
    if not isinstance(value, (int, float)):
        raise ValueError("value must be a number, e.g. 12.5")
    print(value * 2)


if __name__ == "__main__":
    try:
        main()
    except Exception as error:
        print(error, file=sys.stderr)
        sys.exit(1)
${FENCE}

## Secrets

List the key names in tool.json ("secrets": ["OPENWEATHER_API_KEY"]) and read them from the
environment. When a key is missing or rejected, exit non-zero with a message that names the key, so
the agent can ask the user for it with store_secret and call again. Never print a secret.

${FENCE}js
const key = process.env.OPENWEATHER_API_KEY;
if (!key) {
  console.error('missing secret OPENWEATHER_API_KEY: store it with store_secret');
  process.exit(1);
}
${FENCE}

## Checklist

- name: snake_case verb + noun, at most 64 characters, no generic verb.
- description: What / When (with "use for" or "use when" and the alternative) / Precondition;
  60-200 characters; plain text.
- every parameter described (How / When / Example); object, array and enum ones in 20+ characters.
- English only.
- optional parameters have "default", required ones do not; the script still handles missing or null.
- always_allow only when read-only; concurrent only without side effects and with an upstream that
  allows it; a timeout that fits the work.
`;

/** The rules R1–R5 with their reasoning and examples, then how to write a script tool. */
export const TOOL_GENERATE_GUIDE = `${RULES}\n${SCRIPT_TOOLS}`;
