// A server's tool definition as the app registers it, with the values of known secrets scrubbed (docs/secrets.md):
// a server given a token may repeat it in a description, a parameter's description or default, and a definition
// reaches the model with every request, the Tools panel and the search index. A property name that holds a secret
// cannot be scrubbed without changing what the tool takes, so such a tool is not registered.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** `tool` with every string of its definition scrubbed by `redact`; null when a property name holds a secret. */
export function scrubbedDefinition(tool: Tool, redact: (text: string) => string): Tool | null {
  const { description, title, inputSchema, outputSchema, annotations } = tool;
  const whole = JSON.stringify({ description, title, inputSchema, outputSchema, annotations });
  // Nearly every definition holds none: one pass over its JSON text says so (the redactor knows JSON's escapes).
  if (redact(whole) === whole) return tool;
  let keyHeld = false;
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value);
    if (Array.isArray(value)) return value.map(scrub);
    if (value === null || typeof value !== 'object') return value;
    // Built as own properties (a key such as "__proto__" stays a key); the definition's depth was bounded when listed.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        if (redact(key) !== key) keyHeld = true;
        return [key, scrub(item)];
      }),
    );
  };
  const scrubbed = {
    ...tool,
    description: scrub(description),
    title: scrub(title),
    inputSchema: scrub(inputSchema),
    outputSchema: scrub(outputSchema),
    annotations: scrub(annotations),
  } as Tool;
  if (keyHeld) return null;
  // Parts the server left out stay out.
  for (const part of ['description', 'title', 'outputSchema', 'annotations'] as const)
    if (tool[part] === undefined) delete scrubbed[part];
  return scrubbed;
}
