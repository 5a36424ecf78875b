import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const PARTS = 'bus|clock-engine|device-bridge|arbiter-console|simulators|tournament';
// tournament/dutch/index.ts is a part of its own too: `zeitnot pair` loads the engine alone (the whole
// of tournament/ brings zod and the clock engine, ~20 MB of the pairing's peak memory). So is
// bus/options/index.ts: a command's --bus options and names, without the NATS client (docs/console.md#restart).
const throughIndex = {
  regex: `^\\.\\./(\\.\\./)*(?!(tournament/dutch|bus/options)/index\\.ts$)(${PARTS})/(?!index\\.ts$).+`,
  message: 'Import a part through its index.ts, never its internals.',
};
// Tests may also reach a part's internal.ts (what tests drive beyond the public face).
const testsThroughIndex = {
  regex: `^\\.\\./(\\.\\./)*(?!(tournament/dutch|bus/options)/index\\.ts$)(${PARTS})/(?!(index|internal)\\.ts$).+`,
  message: 'Import a part through its index.ts (tests: or its internal.ts), never its internals.',
};

// arbiter-console/ in folders by concern (docs/architecture.md): a folder imports another only through
// that folder's index.ts, and never the console's composition root or public face.
const FOLDERS = 'contract|hall|journal|desk|server|team|devices|on-bus|simulation|start';
const folderThroughIndex = {
  regex: `^\\.\\./(${FOLDERS})/(?!index\\.ts$).+`,
  message: 'Import another arbiter-console folder through its index.ts.',
};
const noRoot = { regex: '^\\.\\./(console|index|internal)\\.ts$', message: 'A folder never imports the composition root or the public face.' };
const never = (folders, why) => ({ regex: `^\\.\\./(${folders})/`, message: why });
const only = (folders, why) => ({ regex: `^\\.\\./(?!(${folders})/index\\.ts$)(${FOLDERS})/`, message: why });
const noNode = { regex: '^node:', message: 'contract/ and the page are pure: no Node.' };
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [throughIndex, ...patterns] }] });

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
    files: ['tests/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [testsThroughIndex] }] },
  },
  {
    files: ['arbiter-console/console.ts', 'arbiter-console/index.ts'],
    rules: restrict({ regex: `^\\./(${FOLDERS})/(?!index\\.ts$).+`, message: 'Import a folder through its index.ts.' }),
  },
  {
    files: ['arbiter-console/internal.ts'],
    rules: restrict({ regex: `^\\./(${FOLDERS})/(?!(index|internal)\\.ts$).+`, message: 'Import a folder through its index.ts or internal.ts.' }),
  },
  {
    files: ['arbiter-console/*/**/*.ts'],
    rules: restrict(folderThroughIndex, noRoot),
  },
  {
    // The contract is what the page loads: pure, and no other folder of the console.
    files: ['arbiter-console/contract/**/*.ts'],
    rules: restrict(noNode, { regex: '^\\.\\./(?!\\.\\./)', message: 'contract/ imports no other arbiter-console folder.' }),
  },
  {
    files: ['arbiter-console/journal/**/*.ts'],
    rules: restrict(folderThroughIndex, noRoot, only('contract', 'The journal imports only contract/: it records, it never decides.')),
  },
  {
    // The hall never imports the desk or the server (nor the devices, the team, the bus roles or the simulation).
    files: ['arbiter-console/hall/**/*.ts'],
    rules: restrict(folderThroughIndex, noRoot, only('contract|journal', 'The hall imports only contract/ and journal/: never the desk or the server.')),
  },
  {
    files: ['arbiter-console/desk/**/*.ts'],
    rules: restrict(folderThroughIndex, noRoot, never('server|on-bus|simulation', 'The desk never imports the server (nor the bus roles or the simulation).')),
  },
  {
    // The page (bundled for the browser) imports only the contract.
    files: ['arbiter-console/web/*.ts'],
    rules: restrict(noNode, { regex: '^\\.\\./(?!contract/page\\.ts$)', message: 'The page imports only contract/page.ts.' }),
  },
  {
    files: ['arbiter-console/web/*/**/*.ts'],
    rules: restrict(noNode, { regex: '^\\.\\./\\.\\./(?!contract/page\\.ts$)', message: 'The page imports only contract/page.ts.' }),
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
