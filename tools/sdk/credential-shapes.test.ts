// Which answers ask_user withholds as credentials (docs/security.md, "What the person sees").
import { describe, expect, it } from 'vitest';
import { credentialShape } from './credential-shapes';

describe('credentialShape', () => {
  it.each([
    [`token: ghp_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`, 'a GitHub token'],
    [`github_pat_${'11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL'}`, 'a GitHub token'],
    [`sk-ant-api03-${'x'.repeat(40)}`, 'an Anthropic or OpenAI key'],
    ['AKIAIOSFODNN7EXAMPLE', 'an AWS access key'],
    ['-----BEGIN RSA PRIVATE KEY-----', 'a private key'],
    [`xoxb-${'1234567890-abcdef'}`, 'a Slack token'],
    [`glpat-${'abcdefghij0123456789'}`, 'a GitLab token'],
  ])('%s is %s', (text, shape) => {
    expect(credentialShape(text)).toBe(shape);
  });

  it.each(['main', 'release-2024', 'yes', 'skip the tests', 'sk-learn', 'the key is in ~/.ssh/id_ed25519'])(
    '%s is no credential',
    (text) => {
      expect(credentialShape(text)).toBeNull();
    },
  );
});
