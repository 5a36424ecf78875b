import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const PARTS = 'bus|clock-engine|device-bridge|arbiter-console|simulators|tournament';
// tournament/dutch/index.ts is a part of its own too: `zeitnot pair` loads the engine alone (the whole
// of tournament/ brings zod and the clock engine, ~20 MB of the pairing's peak memory).
const throughIndex = {
  regex: `^\\.\\./(\\.\\./)*(?!tournament/dutch/index\\.ts$)(${PARTS})/(?!index\\.ts$).+`,
  message: 'Import a part through its index.ts, never its internals.',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'bin/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [throughIndex],
        },
      ],
    },
  },
  {
    // The bus carries journal entries and knows nothing of clocks, boards or tournaments.
    files: ['bus/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [throughIndex, { regex: `^\\.\\./(\\.\\./)*(${PARTS})/`, message: 'bus/ depends on no other part of zeitnot.' }],
        },
      ],
    },
  },
);
