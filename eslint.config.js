import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const SERVER_IMPORTS = { group: ['**/server', '**/server/**', '!react-dom/server'], message: 'Browser code imports wire types and rules from src/domain, never from server/.' };

export default tseslint.config(
  { ignores: ['dist/', 'dist-server/', 'data/', 'node_modules/', 'test-results/', 'playwright-report/', 'server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Browser code shares types and rules with the server only through src/domain (the contracts).
    files: ['src/**/*.{ts,tsx}', 'portal/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}', 'dataProvider/**/*.{ts,tsx}', 'i18n/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_IMPORTS] }],
    },
  },
  {
    // Dependencies point down: the database layer never reaches up into services or routes.
    files: ['server/db/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/services', '**/services/**', '**/routes/**', '**/plugins/**'], message: 'server/db is below the services: move shared code (e.g. server/crypto) where both can reach it.' }] }],
    },
  },
  {
    // The isomorphic domain layer must stay free of React, Node and I/O (and of the server).
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_IMPORTS, { group: ['react*', 'node:*', 'fs', 'path', '@mui/*', 'drizzle-orm*', 'fastify*'], message: 'src/domain is isomorphic: no React, Node, I/O or server libraries.' }] }],
    },
  },
);
