// ESLint flat config: typescript-eslint plus import restrictions that enforce docs/architecture.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
            {
              group: ['**/main/**', '**/tools/**'],
              message: 'The renderer imports only types from preload/contract.ts.',
            },
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
