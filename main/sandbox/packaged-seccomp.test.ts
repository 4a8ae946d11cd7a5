// The packaged app names the unpacked copy of the sandbox runtime's seccomp helper: under app.asar bubblewrap could
// not run it, and every sandboxed command would fail.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagedSeccomp } from './runtime-library';

const entry = (...parts: string[]) =>
  path.join(
    path.sep,
    'opt',
    'Agenvoy',
    ...parts,
    'node_modules',
    '@anthropic-ai',
    'sandbox-runtime',
    'dist',
    'index.js',
  );

describe('packagedSeccomp', () => {
  it('points into app.asar.unpacked when the runtime loads from app.asar', () => {
    expect(packagedSeccomp(entry('resources', 'app.asar'), 'x64')).toEqual({
      applyPath: path.join(
        path.sep,
        'opt',
        'Agenvoy',
        'resources',
        'app.asar.unpacked',
        'node_modules',
        '@anthropic-ai',
        'sandbox-runtime',
        'vendor',
        'seccomp',
        'x64',
        'apply-seccomp',
      ),
    });
  });

  it('leaves the runtime to find it outside an archive, and on architectures without a helper', () => {
    expect(packagedSeccomp(entry('lib'), 'x64')).toBeUndefined();
    expect(packagedSeccomp(entry('resources', 'app.asar'), 'ia32')).toBeUndefined();
  });
});
