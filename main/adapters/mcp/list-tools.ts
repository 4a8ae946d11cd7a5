// tools/list with pagination, within one time budget, read one tool at a time: a tool that breaks the protocol's
// shape or our limits is set aside with its reason, and the server's other tools still register.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { PaginatedResultSchema, ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { jsonBoundsProblem, SCHEMA_LIMITS } from '../../core/schema-bounds';
import { schemaWork } from '../../core/schema-cost';
import { plainOptions } from './request-options';

/** The most tools one server may register: past this its list is cut, with a warning. */
export const MAX_TOOLS_PER_SERVER = 2000;
/**
 * How large the tool definitions of one server may be together, as JSON (docs/robustness.md, "Limits on untrusted
 * structures"): each may be 512 KiB, so 2,000 of them were a gigabyte held, compiled and indexed.
 */
export const MAX_LISTING_BYTES = 16 * 1024 * 1024;

/**
 * How many subschemas the schemas of one server may expand to together (docs/security.md, "What a tool's schema may
 * cost"): Ajv compiles about two a millisecond on the main thread, and 300 tools of 2,400 properties each (within
 * the bytes above) were minutes of compiling before any chat could go on.
 */
export const MAX_LISTING_WORK = 40_000;

/** The longest tool name a server may use (the registered name is cut to 64 anyway; this keeps runaways out). */
export const MAX_REMOTE_NAME_LENGTH = 1024;

/** A tools/list entry set aside: its name when it has a usable one, its place in the list, and why. */
export interface RejectedTool {
  name: string | null;
  index: number;
  reason: string;
  /** `definition`: the protocol's shape; `limits`: too deep, too large or too many. */
  step: 'definition' | 'limits';
}

/** The tools of a server that can be registered, and those set aside. */
export interface ToolListing {
  tools: Tool[];
  rejected: RejectedTool[];
}

/** Every tool of the server, following `nextCursor`; all pages together get `budgetMs` (at least 1 s). */
export async function listAllTools(client: Client, budgetMs: number): Promise<ToolListing> {
  const deadline = Date.now() + Math.max(1000, budgetMs);
  const listing: ToolListing = { tools: [], rejected: [] };
  let index = 0;
  let bytes = 0;
  let work = 0;
  let cursor: string | undefined;
  do {
    // Read loosely, then tool by tool: the SDK's own schema fails the whole page on one bad tool.
    const page = await client.request(
      { method: 'tools/list', params: cursor ? { cursor } : undefined },
      PaginatedResultSchema,
      plainOptions(deadline - Date.now()),
    );
    const items = (page as { tools?: unknown }).tools;
    if (!Array.isArray(items)) throw new Error('tools/list answered without a "tools" array');
    for (const item of items) {
      if (listing.tools.length >= MAX_TOOLS_PER_SERVER) {
        listing.rejected.push({
          name: null,
          index,
          step: 'limits',
          reason: `the server lists more than ${MAX_TOOLS_PER_SERVER} tools; the rest are not registered`,
        });
        return finish(client, listing);
      }
      const read = readTool(item, index++);
      if ('reason' in read) {
        listing.rejected.push(read);
        continue;
      }
      // Within its limits, so its JSON is bounded and safe to make.
      bytes += JSON.stringify(read).length;
      if (bytes > MAX_LISTING_BYTES) {
        listing.rejected.push({
          name: null,
          index: index - 1,
          step: 'limits',
          reason: `the server's tool definitions are more than ${MAX_LISTING_BYTES / (1024 * 1024)} MiB together; "${read.name}" and the tools after it are not registered`,
        });
        return finish(client, listing);
      }
      work += listingWork(read);
      if (work > MAX_LISTING_WORK) {
        listing.rejected.push({
          name: null,
          index: index - 1,
          step: 'limits',
          reason: `the server's tool schemas expand to more than ${MAX_LISTING_WORK} subschemas together; "${read.name}" and the tools after it are not registered`,
        });
        return finish(client, listing);
      }
      listing.tools.push(read);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return finish(client, listing);
}

/** One tools/list entry as a Tool, or the reason it cannot be one (naming the field). */
export function readTool(item: unknown, index: number): Tool | RejectedTool {
  const raw = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : null;
  if (name !== null && name.length > MAX_REMOTE_NAME_LENGTH) {
    return {
      name: null,
      index,
      step: 'limits',
      reason: `tool name is ${name.length} characters; the limit is ${MAX_REMOTE_NAME_LENGTH}`,
    };
  }
  // Limits first: the shape check and everything after it walk these schemas.
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    const problem = raw[field] === undefined ? null : jsonBoundsProblem(raw[field], SCHEMA_LIMITS);
    if (problem) return { name, index, step: 'limits', reason: `${field} is ${problem}` };
  }
  const parsed = ToolSchema.safeParse(item);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(tool)'}: ${issue.message}`);
    return { name, index, step: 'definition', reason: issues.join('; ') };
  }
  return parsed.data as Tool;
}

// What compiling a tool's schemas costs; a schema past its own limits is refused without compiling, so costs nothing.
function listingWork(tool: Tool): number {
  let total = 0;
  for (const schema of [tool.inputSchema, tool.outputSchema]) {
    const work = schema ? schemaWork(schema as Record<string, unknown>) : 0;
    if (typeof work === 'number') total += work;
  }
  return total;
}

// The SDK's client remembers each tool's output schema and task support when its own listTools runs; reading the
// list ourselves, we hand it the tools that passed (its output validators are compiled guarded, see connect.ts).
function finish(client: Client, listing: ToolListing): ToolListing {
  const remember = (client as unknown as { cacheToolMetadata?: (tools: Tool[]) => void }).cacheToolMetadata;
  if (typeof remember === 'function') remember.call(client, listing.tools);
  return listing;
}
