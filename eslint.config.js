// ESLint flat config: typescript-eslint plus the import rules that enforce the layers of docs/architecture.md.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// The tools SDK (tools/sdk/): what every layer may use of tools/ — types, ports, path and file helpers, the one safe
// writer, the shell-line reader, the shared name lists. tools/builtin/ holds the concrete tools, which only the app
// and the hosts wire in.
const TOOLS_SDK = ['./sdk'];

const HOSTS = ['cli', 'web', 'electron', 'mcp-server'];

// Lower layers: each imports only the core (and process groups, which sit beside it), itself and the tools SDK —
// never the agent, a host or a concrete tool.
const lowerLayer = (name) => [
  {
    target: `./main/${name}`,
    from: './main',
    except: [...new Set(['./core', './process', `./${name}`])],
    message: `main/${name} imports only main/core, main/process and the tools SDK (docs/architecture.md, "Layers").`,
  },
  {
    target: `./main/${name}`,
    from: './tools',
    except: TOOLS_SDK,
    message: `main/${name} may use the tools SDK, never a concrete tool (docs/architecture.md, "Layers").`,
  },
];

/** The layer zones of docs/architecture.md, for import-x/no-restricted-paths. */
export const LAYER_ZONES = [
  {
    target: './main/core',
    from: './main',
    except: ['./core'],
    message: 'main/core imports nothing else of main/ (docs/architecture.md, "Layers").',
  },
  {
    target: './main/core',
    from: './tools',
    except: TOOLS_SDK,
    message: 'main/core may use the tools SDK, never a concrete tool (docs/architecture.md, "Layers").',
  },
  ...['store', 'gate', 'secrets', 'adapters', 'search', 'settings'].flatMap(lowerLayer),
  // Process groups sit beside the core: they import the core and nothing else of main/.
  {
    target: './main/process',
    from: './main',
    except: ['./core', './process'],
    message: 'main/process imports only main/core and the tools SDK (docs/architecture.md, "Layers").',
  },
  {
    target: './main/process',
    from: './tools',
    except: TOOLS_SDK,
    message: 'main/process may use the tools SDK, never a concrete tool (docs/architecture.md, "Layers").',
  },
  ...HOSTS.flatMap((host) =>
    HOSTS.filter((other) => other !== host).map((other) => ({
      target: `./main/${host}`,
      from: `./main/${other}`,
      message: `No host imports another host: main/${host} must not import main/${other} (docs/architecture.md).`,
    })),
  ),
  {
    target: './tools/sdk',
    from: './tools/builtin',
    message: 'The tools SDK never imports a concrete tool (docs/architecture.md, "Layers").',
  },
  {
    target: './tools',
    from: './main',
    message: 'tools/ gets capabilities through the tool context, never by importing main/.',
  },
  {
    target: './renderer',
    from: './main',
    message: 'The renderer imports only the contract (preload/contract.ts).',
  },
  {
    target: './renderer',
    from: './tools',
    message: 'The renderer imports only the contract (preload/contract.ts).',
  },
  {
    // Browser mode has no preload script: the page loads the bridge that stands in for it (web-bridge.ts, DOM only).
    target: './renderer',
    from: './preload',
    except: ['./contract.ts', './contract', './web-bridge.ts', './web-protocol.ts'],
    message: "The renderer imports only the contract (preload/contract.ts) and browser mode's bridge.",
  },
];

// Test code wires real parts together across layers; the zones bind the product's own files.
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/*-testing.ts'];

const electronOnly = {
  group: ['electron', 'electron/*'],
  message: 'Only main/electron/ and preload/ may import electron: the core must run in plain Node.',
};

const sandboxRuntimeOnly = {
  group: ['@anthropic-ai/sandbox-runtime', '@anthropic-ai/sandbox-runtime/*'],
  message: 'Only main/sandbox/ may use the sandbox runtime: the core sees it as the CommandSandbox port.',
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', 'bench/data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { patterns: [electronOnly, sandboxRuntimeOnly] }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle reads the imported files: it must know how to parse TypeScript.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'] }),
      ],
    },
    rules: {
      // restricted-paths silently skips what it cannot resolve, so everything must resolve.
      'import-x/no-unresolved': ['error', { ignore: ['\\?'] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: TEST_FILES,
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }] },
  },
  {
    files: ['main/sandbox/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [electronOnly] }] },
  },
  {
    files: ['tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            electronOnly,
            sandboxRuntimeOnly,
            {
              group: ['**/main/**', '../main', '../../main'],
              message: 'tools/ gets capabilities through the tool context, never by importing main/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            electronOnly,
            { group: ['node:*'], message: 'The renderer runs in a page: no node: modules.' },
            // main/ and tools/ are kept out by the layer zones (LAYER_ZONES), which resolve real paths.
          ],
        },
      ],
    },
  },
  {
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/tools/**', '**/renderer/**', 'node:*'],
              message: 'preload imports electron and the contract only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
