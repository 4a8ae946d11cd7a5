// The parser of mcp-trusted-definitions.json (trusted-definitions.ts): exactly what this version writes, or damaged.
import { z } from 'zod';
import { jsonBoundsProblem } from '../../core/schema-bounds';
import { zodReason } from '../../core/zod-issues';
import {
  DEFINITION_PARTS,
  MAX_DEFINITIONS_FILE_BYTES,
  MAX_PARAMETER_NAME,
  MAX_PINNED_DESCRIPTION,
  MAX_PINNED_NAME,
  MAX_PINNED_PARAMETERS,
  MAX_PINNED_SERVERS,
  MAX_PINNED_TOOLS,
} from './definition-pins';
import type { DefinitionsFile } from './trusted-definitions';

const name = z.string().min(1).max(MAX_PINNED_NAME);
const hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));
const pinSchema = z.strictObject({
  tool: name,
  definition: hex(32),
  parts: z.strictObject(
    Object.fromEntries(DEFINITION_PARTS.map((part) => [part, hex(16)])) as Record<
      (typeof DEFINITION_PARTS)[number],
      ReturnType<typeof hex>
    >,
  ),
  parameters: z.array(z.string().max(MAX_PARAMETER_NAME)).max(MAX_PINNED_PARAMETERS),
  description: z.string().max(MAX_PINNED_DESCRIPTION),
  pinnedAt: z.string().refine((time) => !Number.isNaN(Date.parse(time)), 'is not a time'),
  origin: z.enum(['first-seen', 'accepted']),
});
const fileSchema = z.strictObject({
  version: z.literal(1),
  servers: z
    .array(z.strictObject({ server: name, tools: z.array(pinSchema).max(MAX_PINNED_TOOLS) }))
    .max(MAX_PINNED_SERVERS),
});

/** Parses the file's text; anything but exactly what this version writes is damaged. */
export function parseDefinitionsFile(
  text: string,
  file: string,
): { kind: 'ok'; file: DefinitionsFile } | { kind: 'damaged'; problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: 'damaged', problem: `${file} is not valid JSON (${(error as Error).message})` };
  }
  const bounds = jsonBoundsProblem(raw, { maxDepth: 8, maxBytes: MAX_DEFINITIONS_FILE_BYTES });
  if (bounds) return { kind: 'damaged', problem: `${file}: ${bounds}` };
  const checked = fileSchema.safeParse(raw);
  if (!checked.success) return { kind: 'damaged', problem: zodReason(checked.error, `${file}: `) };
  const servers = new Set<string>();
  for (const entry of checked.data.servers) {
    if (servers.has(entry.server))
      return {
        kind: 'damaged',
        problem: `${file}: server ${JSON.stringify(entry.server.slice(0, 40))} twice`,
      };
    servers.add(entry.server);
    const tools = new Set(entry.tools.map((pin) => pin.tool));
    if (tools.size !== entry.tools.length)
      return {
        kind: 'damaged',
        problem: `${file}: a tool of server ${JSON.stringify(entry.server.slice(0, 40))} twice`,
      };
  }
  return { kind: 'ok', file: checked.data };
}
