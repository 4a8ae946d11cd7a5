// Readers for request fields: whatever a renderer or a socket sends is untrusted until checked here.
import { HostError } from './host-error';

/** A request as it arrived: a plain object, or an invalid_request error. */
export function requestObject(request: unknown): Record<string, unknown> {
  if (request === undefined || request === null) return {};
  if (typeof request !== 'object' || Array.isArray(request)) {
    throw new HostError('invalid_request', 'the request must be an object');
  }
  return request as Record<string, unknown>;
}

/** A required non-empty string field. */
export function requiredString(fields: Record<string, unknown>, name: string, max = 100_000): string {
  const value = fields[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new HostError('invalid_request', `"${name}" must be a non-empty string`);
  }
  if (value.length > max)
    throw new HostError('invalid_request', `"${name}" is longer than ${max} characters`);
  return value;
}

/** An optional string field (undefined when absent or null). */
export function optionalString(
  fields: Record<string, unknown>,
  name: string,
  max = 100_000,
): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new HostError('invalid_request', `"${name}" must be a string`);
  if (value.length > max)
    throw new HostError('invalid_request', `"${name}" is longer than ${max} characters`);
  return value;
}

/** An optional positive integer field, clamped to `max`. */
export function optionalLimit(
  fields: Record<string, unknown>,
  name: string,
  max: number,
): number | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new HostError('invalid_request', `"${name}" must be a positive integer`);
  }
  return Math.min(value, max);
}

/** A required non-negative integer field. */
export function requiredIndex(fields: Record<string, unknown>, name: string): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new HostError('invalid_request', `"${name}" must be a non-negative integer`);
  }
  return value;
}
