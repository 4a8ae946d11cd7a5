// The searchable words of a tool, by field: its own name words, its server or source, its description
// and its parameters.
import { contentWords } from './tokenize';
import { isRecord } from '../../tools/sdk/values';

/** A tool as the index sees it. */
export interface IndexedTool {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
}

/** Field order in postings and weights: name, source, description, parameters. */
export const FIELD_COUNT = 4;

/** Content words (not stemmed) of each field of a tool. */
export interface ToolFields {
  name: string[];
  source: string[];
  description: string[];
  parameters: string[];
}

/** Splits `mcp__<server>__<tool>` and `script_<name>` into the source and the author's own name. */
export function splitToolName(name: string): { source: string; own: string } {
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  if (mcp) return { source: mcp[1] ?? '', own: mcp[2] ?? '' };
  const script = /^script_(.+)$/.exec(name);
  if (script) return { source: 'script', own: script[1] ?? '' };
  return { source: '', own: name };
}

/** The words of each field of a tool; tolerates missing or odd-typed fields. */
export function toolFields(tool: IndexedTool): ToolFields {
  const { source, own } = splitToolName(String(tool.name));
  return {
    name: contentWords(own),
    source: contentWords(source),
    description: contentWords(typeof tool.description === 'string' ? tool.description : ''),
    parameters: contentWords(parameterText(tool.parameters)),
  };
}

// Property names and their descriptions, one level deep (plus array items), which is where authors
// put the words a model would use.
function parameterText(schema: unknown, depth = 0): string {
  if (!isRecord(schema) || depth > 2) return '';
  const parts: string[] = [];
  const properties = schema['properties'];
  if (isRecord(properties)) {
    for (const [key, value] of Object.entries(properties)) {
      parts.push(key);
      if (isRecord(value) && typeof value['description'] === 'string') parts.push(value['description']);
      if (isRecord(value) && depth < 1) parts.push(parameterText(value['items'], depth + 1));
    }
  }
  return parts.join(' ');
}
