// `$VAR`, `${VAR}` and `${secret:NAME}` in mcp.json strings (docs/secrets.md, "How tools get secrets"; docs/tools.md, "MCP servers"), expanded at each connect so a
// secret stored after a failure is picked up by the next attempt.
import { CredentialError } from '../../../tools/sdk/types';
import type { McpEndpoint } from './config-types';

/** Looks a secret up by key name (the secret store's port); undefined when it is not stored. */
export type SecretResolver = (name: string) => Promise<string | undefined>;

/** What expansion reads from and reports to. */
export interface ExpandContext {
  env: NodeJS.ProcessEnv;
  getSecret: SecretResolver;
  /** Called for every secret value used, so the caller can have it redacted. */
  onSecret?: (name: string, value: string) => void;
  /** Called once per unset environment variable (it expands to ""). */
  onUnsetVar?: (name: string) => void;
}

// `$$` is a literal dollar; `${secret:NAME}`; `${VAR}`; `$VAR`.
const PATTERN = /\$\$|\$\{secret:([^}]*)\}|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
const KEY_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Expands one string; an unresolvable `${secret:NAME}` throws CredentialError(NAME, 'missing'). */
export async function expandString(text: string, context: ExpandContext): Promise<string> {
  if (!text.includes('$')) return text;
  const secrets = new Map<string, string>();
  for (const match of text.matchAll(PATTERN)) {
    const name = match[1];
    if (name === undefined || secrets.has(name)) continue;
    if (!KEY_NAME.test(name))
      throw new CredentialError(name, 'missing', `"\${secret:${name}}" does not name a valid secret key`);
    const value = await context.getSecret(name);
    if (value === undefined || value === '') {
      throw new CredentialError(
        name,
        'missing',
        `missing secret ${name} (used as \${secret:${name}} in mcp.json): store it with store_secret`,
      );
    }
    context.onSecret?.(name, value);
    secrets.set(name, value);
  }
  return text.replace(
    PATTERN,
    (whole, secret: string | undefined, braced: string | undefined, bare: string | undefined) => {
      if (whole === '$$') return '$';
      if (secret !== undefined) return secrets.get(secret) ?? '';
      const name = (braced ?? bare) as string;
      const value = context.env[name];
      if (value === undefined) context.onUnsetVar?.(name);
      return value ?? '';
    },
  );
}

/** Expands every string of an endpoint: command, args, env values, url and header values. */
export async function expandEndpoint(endpoint: McpEndpoint, context: ExpandContext): Promise<McpEndpoint> {
  switch (endpoint.kind) {
    case 'stdio':
      return {
        kind: 'stdio',
        command: await expandString(endpoint.command, context),
        args: await Promise.all(endpoint.args.map((arg) => expandString(arg, context))),
        env: await expandMap(endpoint.env, context),
      };
    case 'http':
      return {
        kind: 'http',
        url: await expandString(endpoint.url, context),
        headers: await expandMap(endpoint.headers, context),
        sseOnly: endpoint.sseOnly,
      };
  }
}

async function expandMap(
  map: Record<string, string>,
  context: ExpandContext,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) out[key] = await expandString(value, context);
  return out;
}
