// What changed in a trusted tool's definition, as the person reads it before accepting it (docs/security.md, "MCP
// trust"): the description before and now, and each other part that changed in full (parameters with their
// descriptions, defaults and patterns, title, output schema, annotations). One report for main's question and for
// `agenvoy mcp changed`, so both show everything an accept takes. The server's words are quoted as JSON (line breaks
// and quotes escaped), with known secrets scrubbed before any cut, and a cut said in the redactor's words.
import { clipNoted } from '../../core/clip-chars';
import type { DefinitionPart } from './definition-pins';
import { MAX_PINNED_DESCRIPTION } from './definition-pins';
import type { WithdrawnTool } from './trust-judge';

/** The report of one tool: its lines, and whether a changed part was too long to show whole within `limit`. */
export interface ChangeReport {
  lines: string[];
  cut: boolean;
}

/** The lines that tell what changed in `entry`, each part cut at `limit` characters (Infinity: whole). */
export function changeReport(
  entry: WithdrawnTool,
  redact: (text: string) => string,
  limit = Infinity,
): ChangeReport {
  let cut = false;
  const shown = (text: string) => {
    const scrubbed = redact(text);
    if (scrubbed.length > limit) cut = true;
    return Number.isFinite(limit) ? clipNoted(scrubbed, limit) : scrubbed;
  };
  const quote = (text: string) => JSON.stringify(shown(text));
  // JSON on one line: a server's line breaks and quotes inside it stay escaped.
  const json = (value: unknown) => shown(JSON.stringify(value ?? null));
  const changed = (part: DefinitionPart) => entry.pinned?.parts[part] !== entry.now.parts[part];
  const { definition, pinned } = entry;
  const lines: string[] = [];
  if (changed('description')) {
    if (pinned) {
      // The record keeps the first 2,000 characters of a description: said when that is all there is to show.
      const recorded =
        pinned.description.length >= MAX_PINNED_DESCRIPTION ? ' (its first 2,000 characters)' : '';
      lines.push(`Description before${recorded}: ${quote(pinned.description)}`);
    }
    lines.push(`Description now: ${quote(definition.description ?? '')}`);
  } else lines.push(`Description (unchanged): ${quote(definition.description ?? '')}`);
  if (changed('title')) lines.push(`Title now: ${json(definition.title)}`);
  if (changed('inputSchema')) lines.push(`Parameters now: ${json(definition.inputSchema)}`);
  if (changed('outputSchema')) lines.push(`Output schema now: ${json(definition.outputSchema)}`);
  if (changed('annotations')) lines.push(`Annotations now: ${json(definition.annotations)}`);
  return { lines, cut };
}
