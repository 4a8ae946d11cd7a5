// The app's version for app.info: package.json next to the sources, or what the bundler baked in.
import fs from 'node:fs';

/** package.json's version, searched upwards from this module; 'unknown' when none is found. */
export function appVersion(): string {
  let dir = new URL('.', import.meta.url);
  for (let depth = 0; depth < 5; depth++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'agenvoy-desktop' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not here: look one folder up.
    }
    dir = new URL('..', dir);
  }
  return 'unknown';
}
