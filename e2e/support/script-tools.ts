// Script tools the suites drop into the temp AGENVOY_HOME before the host starts (the folder format of docs/tools.md, "Script tools").
import fs from 'node:fs';
import path from 'node:path';

/** Writes `tools/script/<name>/tool.json` and `script.js` under `home`. */
export function writeScriptTool(
  home: string,
  manifest: Record<string, unknown> & { name: string },
  script: string,
): void {
  const dir = path.join(home, 'tools', 'script', manifest.name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'tool.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(dir, 'script.js'), script);
}

/** Writes a workspace tool: `<workspace>/.config/agenvoy/tools/script/<name>/` (untrusted until the folder is). */
export function writeWorkspaceTool(
  workspace: string,
  manifest: Record<string, unknown> & { name: string },
  script: string,
): void {
  writeScriptTool(path.join(workspace, '.config', 'agenvoy'), manifest, script);
}

/** A read-only tool that needs the secret CANARY_KEY; it reports the key's length, never the key. */
export function canaryTool(home: string): void {
  writeScriptTool(
    home,
    {
      name: 'read_canary',
      description:
        'Check that the canary key is available to tools.\nUse when testing credential prompts; nothing else needs it.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      always_allow: true,
      timeout: 30,
      secrets: ['CANARY_KEY'],
    },
    "process.stdout.write('canary key present, ' + String(process.env.CANARY_KEY || '').length + ' characters');\n",
  );
}
