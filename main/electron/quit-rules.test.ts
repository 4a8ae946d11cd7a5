// The quit rule, in plain Node.
import { describe, expect, it } from 'vitest';
import { quitStep } from './quit-rules';

describe('quit rules', () => {
  it('stops at once when no task runs', () => {
    expect(quitStep(0)).toEqual({ kind: 'stop_now' });
  });

  it('asks first when tasks run, saying how many', () => {
    expect(quitStep(1)).toMatchObject({
      kind: 'ask',
      message: '1 background task is still running. Quit anyway?',
    });
    expect(quitStep(3)).toMatchObject({
      kind: 'ask',
      message: '3 background tasks are still running. Quit anyway?',
    });
  });
});
