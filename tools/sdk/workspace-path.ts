// Resolving a tool's path parameter against the chat's workspace, refusing paths that leave it.
import path from 'node:path';
import { ToolError } from './types';

/** Resolves `relative` against `workspace`; a ToolError naming `parameter` when it leaves the workspace. */
export function insideWorkspace(workspace: string, relative: string, parameter: string): string {
  const root = path.resolve(workspace);
  const target = path.resolve(root, relative);
  if (target !== root && !target.startsWith(root + path.sep)) {
    throw new ToolError('invalid_arguments', `\`${parameter}\` must stay inside the workspace ${root}`, {
      parameter,
    });
  }
  return target;
}

/** The trimmed string value of an optional string argument ('' when missing or null). */
export function optionalString(value: unknown, parameter: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    throw new ToolError('invalid_arguments', `\`${parameter}\` must be a string`, { parameter });
  }
  return value.trim();
}

/** The trimmed value of a required string argument; a ToolError naming it when missing or blank. */
export function requiredString(value: unknown, parameter: string, example: string): string {
  const text = optionalString(value, parameter);
  if (text === '') {
    throw new ToolError('invalid_arguments', `\`${parameter}\` must be a non-empty string, e.g. ${example}`, {
      parameter,
    });
  }
  return text;
}
