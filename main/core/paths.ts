// Where Agenvoy keeps its files; every path honours AGENVOY_HOME so tests never touch a real home.
import os from 'node:os';
import path from 'node:path';

/** $AGENVOY_HOME, default ~/.config/agenvoy. */
export function agenvoyHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.AGENVOY_HOME;
  return home && home.length > 0 ? path.resolve(home) : path.join(os.homedir(), '.config', 'agenvoy');
}

/** The file layout under one AGENVOY_HOME and one workspace. */
export interface AgenvoyPaths {
  home: string;
  globalScripts: string;
  mcpConfig: string;
  secretsFile: string;
  desktop: string;
  logs: string;
  settings: string;
}

/** Resolves the layout of docs/hosts.md ("Files under AGENVOY_HOME") under `home`. */
export function agenvoyPaths(home: string = agenvoyHome()): AgenvoyPaths {
  const desktop = path.join(home, 'desktop');
  return {
    home,
    globalScripts: path.join(home, 'tools', 'script'),
    mcpConfig: path.join(home, 'mcp.json'),
    secretsFile: path.join(home, '.secrets'),
    desktop,
    logs: path.join(desktop, 'logs'),
    settings: path.join(desktop, 'settings.json'),
  };
}

/** The project-local script folder of a workspace. */
export function workspaceScripts(workspace: string): string {
  return path.join(workspace, '.config', 'agenvoy', 'tools', 'script');
}
