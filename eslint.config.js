import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
          patterns: [
            {
              regex: '^\\.\\./(\\.\\./)*(clock-engine|device-bridge|arbiter-console|simulators|tournament)/(?!index\\.ts$).+',
              message: 'Import a part through its index.ts, never its internals.',
            },
          ],
        },
      ],
    },
  },
);
