// build/electron-builder.config.cjs lists every file the desktop app loads at run time: the bundles the shell opens
// (main/electron/app-files.ts), the pages and their assets, every package the bundled main imports (as a production
// dependency, not left out by a pattern), native modules and the sandbox's helper unpacked, and the update feed.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { minimatch } from 'minimatch';
import { beforeAll, describe, expect, it } from 'vitest';
// eslint-disable-next-line no-restricted-imports -- a plain-Node module (no electron import): where the shell looks for its files
import { appFiles } from '../main/electron/app-files';
import { ensureRenderer } from '../main/web/renderer-build';
import { buildElectron, OUT_DIR, ROOT } from './build-electron';
import { importedPackages, pageAssets, SHELL_FILES } from './package-rules';

const require = createRequire(import.meta.url);
const CONFIG = path.join(ROOT, 'build', 'electron-builder.config.cjs');

interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  npmRebuild: boolean;
  electronFuses: Record<string, boolean> | null;
  publish: Array<{ provider: string; owner: string; repo: string; releaseType: string }> | null;
  mac: { target: string[] };
  linux: { target: string[] };
  win: { target: string[] };
}

/** The config as electron-builder loads it, under `env` (restored afterwards). */
function loadConfig(env: Record<string, string | undefined> = {}): BuilderConfig {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete process.env[key];
  try {
    delete require.cache[CONFIG];
    return require(CONFIG) as BuilderConfig;
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** Whether electron-builder's `files` patterns (in order; `!` excludes) take `file`, relative to the app root. */
function packaged(config: BuilderConfig, file: string): boolean {
  let taken = false;
  for (const pattern of config.files) {
    if (pattern.startsWith('!')) {
      if (minimatch(file, pattern.slice(1), { dot: true })) taken = false;
    } else if (minimatch(file, pattern, { dot: true })) taken = true;
  }
  return taken;
}

// node_modules are not in `files`: electron-builder adds production dependencies itself, and the patterns can only
// take files away from them.
function packagedDependency(config: BuilderConfig, file: string): boolean {
  return !config.files.some(
    (pattern) => pattern.startsWith('!') && minimatch(file, pattern.slice(1), { dot: true }),
  );
}

const unpacked = (config: BuilderConfig, file: string) =>
  config.asarUnpack.some((pattern) => minimatch(file, pattern, { dot: true }));

const config = loadConfig({ AGENVOY_UNHARDENED: undefined });
let mainSource = '';

beforeAll(async () => {
  await Promise.all([buildElectron(), ensureRenderer({ rebuild: false })]);
  mainSource = fs.readFileSync(path.join(OUT_DIR, 'main.mjs'), 'utf8');
}, 120_000);

describe('the files the shell loads', () => {
  it('packages each file the shell opens, as main/electron/app-files.ts resolves it from the bundled main', () => {
    const files = appFiles(path.join(OUT_DIR, 'main.mjs'));
    const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
    for (const file of [files.preload, files.dialogPreload, path.join(files.rendererDir, 'index.html')]) {
      expect(fs.existsSync(file), file).toBe(true);
      expect(packaged(config, relative(file)), relative(file)).toBe(true);
    }
    for (const file of SHELL_FILES) expect(packaged(config, file), file).toBe(true);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main).toBe('dist/electron/main.mjs');
  });

  it('packages every asset the pages load, and no source map', () => {
    for (const page of ['index.html', 'dialog.html']) {
      const html = fs.readFileSync(path.join(ROOT, 'dist', 'renderer', page), 'utf8');
      const assets = pageAssets(html);
      expect(assets.length, page).toBeGreaterThan(0);
      for (const asset of assets) {
        expect(fs.existsSync(path.join(ROOT, 'dist', 'renderer', asset)), asset).toBe(true);
        expect(packaged(config, `dist/renderer/${asset}`), asset).toBe(true);
      }
    }
    expect(packaged(config, 'dist/electron/main.mjs.map')).toBe(false);
    // Only the shell's bundles: not the CLI's build, not the sources.
    expect(packaged(config, 'dist/cli/main.mjs')).toBe(false);
    expect(packaged(config, 'main/electron/main.ts')).toBe(false);
  });
});

describe('the packages the bundled main imports', () => {
  it('finds the imports (static and lazy) in the bundle, and the packages worker threads load by path', () => {
    const imports = importedPackages(mainSource);
    expect(imports).toEqual(expect.arrayContaining(['better-sqlite3', 'playwright-core', 'zod']));
    // fetch_page's extraction and html_template run in worker threads handed resolved paths.
    expect(imports).toEqual(
      expect.arrayContaining(['jsdom', '@mozilla/readability', 'turndown', 'liquidjs']),
    );
    expect(imports).not.toContain('electron');
  });

  it('ships each one: a production dependency that no pattern leaves out', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<
      'dependencies' | 'optionalDependencies' | 'devDependencies',
      Record<string, string>
    >;
    const production = { ...pkg.dependencies, ...pkg.optionalDependencies };
    for (const name of importedPackages(mainSource)) {
      expect(
        production[name],
        `${name} is imported by main.mjs but is not a production dependency`,
      ).toBeDefined();
      expect(packagedDependency(config, `node_modules/${name}/package.json`), name).toBe(true);
    }
  });

  it('leaves out what only the CLI and the build use', () => {
    for (const name of ['tsx', 'esbuild', '@esbuild/linux-x64'])
      expect(packagedDependency(config, `node_modules/${name}/package.json`), name).toBe(false);
    expect(importedPackages(mainSource)).not.toContain('tsx');
  });
});

describe('what must stay outside the archive', () => {
  it('unpacks the native modules of better-sqlite3 and keytar, and rebuilds them for Electron', () => {
    const natives = ['better-sqlite3', 'keytar'].flatMap((name) => {
      const dir = path.join(ROOT, 'node_modules', name, 'build', 'Release');
      return fs.existsSync(dir)
        ? fs
            .readdirSync(dir)
            .filter((file) => file.endsWith('.node'))
            .map((file) => `node_modules/${name}/build/Release/${file}`)
        : [];
    });
    expect(natives).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    for (const file of natives) expect(unpacked(config, file), file).toBe(true);
    expect(config.npmRebuild).toBe(true);
  });

  it("unpacks the sandbox runtime's seccomp helper, which bubblewrap runs by path", () => {
    const vendor = path.join(ROOT, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor', 'seccomp');
    const helpers = fs
      .readdirSync(vendor, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    expect(helpers.length).toBeGreaterThan(0);
    for (const file of helpers) expect(unpacked(config, file), file).toBe(true);
  });
});

describe('release settings', () => {
  it('hardens the fuses unless AGENVOY_UNHARDENED=1', () => {
    expect(config.electronFuses).toMatchObject({
      onlyLoadAppFromAsar: true,
      enableNodeCliInspectArguments: false,
    });
    expect(loadConfig({ AGENVOY_UNHARDENED: '1' }).electronFuses).toBeNull();
  });

  it('builds every installer the release names, with the zip macOS updates need', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg', 'zip']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('takes the update feed from the repository the workflow runs in, and has none without it', () => {
    const inCi = loadConfig({
      GITHUB_REPOSITORY: 'someone/agenvoy-desktop',
      AGENVOY_RELEASE_REPO: undefined,
    });
    expect(inCi.publish).toEqual([
      { provider: 'github', owner: 'someone', repo: 'agenvoy-desktop', releaseType: 'draft' },
    ]);
    expect(loadConfig({ GITHUB_REPOSITORY: undefined, AGENVOY_RELEASE_REPO: undefined }).publish).toBeNull();
  });
});
