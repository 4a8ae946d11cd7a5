/* global module */
// electron-builder configuration: Linux (AppImage, deb), macOS (dmg, and zip for updates), Windows (nsis).
// Packaging needs a machine with internet: electron-builder downloads the Electron binary for each target, and
// the native modules (better-sqlite3, keytar) are rebuilt against Electron's headers (or their Electron prebuilds
// fetched). The release workflow (.github/workflows/release.yml) runs it; docs/release.md says how.

/** Release builds flip Electron's fuses; AGENVOY_UNHARDENED=1 leaves them as shipped (debugging, the _electron e2e). */
const hardened = process.env.AGENVOY_UNHARDENED !== '1';

/**
 * Where updates come from: the GitHub repository the release workflow runs in (GITHUB_REPOSITORY, "owner/name"), or
 * AGENVOY_RELEASE_REPO for a build elsewhere. Without either, the package carries no feed and never updates.
 */
const releaseRepo = process.env.AGENVOY_RELEASE_REPO || process.env.GITHUB_REPOSITORY || '';
const [owner, repo] = releaseRepo.split('/');

/** The files the shell loads (main/electron/app-files.ts, build/build-electron.ts, vite.config.ts). */
const RUNTIME_FILES = ['package.json', 'dist/electron/**', 'dist/renderer/**'];

/**
 * Never packaged: source maps, and the packages only the CLI (`bin/agenvoy` runs TypeScript through tsx) or the
 * build uses. build/package-files.test.ts checks that nothing the bundled main imports is left out.
 */
const EXCLUDED = [
  '!**/*.map',
  '!node_modules/tsx/**',
  '!node_modules/esbuild/**',
  '!node_modules/@esbuild/**',
];

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'dev.agenvoy.desktop',
  productName: 'Agenvoy',
  copyright: 'Agenvoy contributors',
  directories: { output: 'dist/packages', buildResources: 'build/resources' },
  // The bundles from `npm run build`; production dependencies come from node_modules (devDependencies never do).
  files: [...RUNTIME_FILES, ...EXCLUDED],
  asar: true,
  asarUnpack: [
    // Native modules cannot load from inside the archive.
    '**/*.node',
    // The sandbox runtime hands its seccomp helper to bubblewrap by path: it must be a real file.
    'node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/**',
  ],
  // Rebuild better-sqlite3 and keytar for Electron's ABI at packaging (npm ci built them for Node), with the
  // @electron/rebuild that electron-builder ships (sequential: one module at a time). The user's machine never
  // compiles anything: build/verify-package.ts checks the ABI the packaged modules were built for.
  npmRebuild: true,
  nativeRebuilder: 'sequential',
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  electronFuses: hardened
    ? {
        // Kept ON on purpose: JS script tools run with the app's own binary as Node (ELECTRON_RUN_AS_NODE=1,
        // main/adapters/script/script-handler.ts). Turning it off needs script tools on utilityProcess or a system node.
        runAsNode: true,
        enableCookieEncryption: true,
        enableNodeOptionsEnvironmentVariable: false,
        enableNodeCliInspectArguments: false,
        enableEmbeddedAsarIntegrityValidation: true,
        onlyLoadAppFromAsar: true,
        loadBrowserProcessSpecificV8Snapshot: false,
        // The pages load from app://, never file://.
        grantFileProtocolExtraPrivileges: false,
      }
    : null,
  // The update feed: latest*.yml next to the installers on the repository's GitHub releases. A draft release is
  // invisible to the updater until someone publishes it (docs/release.md).
  publish: owner && repo ? [{ provider: 'github', owner, repo, releaseType: 'draft' }] : null,
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    maintainer: 'Agenvoy contributors <agenvoy@users.noreply.github.com>',
  },
  // keytar talks to the Secret Service through libsecret.
  deb: { depends: ['libsecret-1-0', 'libnss3', 'libgtk-3-0'] },
  mac: {
    // The zip is what electron-updater installs on macOS; the dmg is what people download.
    target: ['dmg', 'zip'],
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
    // Notarized when APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID are set (repository secrets).
    notarize: Boolean(process.env.APPLE_TEAM_ID),
  },
  dmg: { sign: false },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
};
