import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const SERVER_IMPORTS = { group: ['**/server', '**/server/**', '!react-dom/server'], message: 'Browser code imports wire types and rules from src/domain, never from server/.' };
// caseSensitive: '**/portal' must not catch @mui/material/Portal.
const PORTAL_IMPORTS = { group: ['**/portal', '**/portal/**'], caseSensitive: true, message: 'admin never imports portal/: a widget both show lives in src/ui (src/ui/servers for servers).' };
const DATA_PROVIDER_IMPORTS = { group: ['**/dataProvider', '**/dataProvider/**'], caseSensitive: true, message: 'src/ui never imports dataProvider/: take the call as a prop, or the type from src/domain.' };
// Screens read and write through their area's hooks (dataProvider/<area>/queries.ts), never its calls.
const API_CALL_IMPORTS = {
  group: ['**/dataProvider', '**/dataProvider/**'],
  importNamePattern: '^(apiFetch|apiDownload|[a-z]\\w*Api)$',
  caseSensitive: true,
  message: "Screens call their area's hooks (dataProvider/<area>/queries.ts), not its API calls: add a query or mutation there.",
};
// Screens that still call the API themselves, each for its reason in CONTRIBUTING.md ("A screen's data").
const API_CALL_EXCEPTIONS = [
  'portal/auth/**',
  'portal/onboarding/**',
  'portal/wizard/submit.ts',
  'portal/wizard/PaymentStep.tsx',
  'portal/wizard/CardForm.tsx',
  'portal/tools/FreeAppProfileReviewPage.tsx',
  'src/session.ts',
  'src/companySelection.ts',
  'analytics/portal/AnalyticsApp.tsx',
];
const DB_UPWARD_IMPORTS = { group: ['**/services', '**/services/**', '**/routes/**', '**/plugins/**'], message: 'server/db is below the services: move shared code (e.g. server/crypto) where both can reach it.' };
const WORKER_IMPORTS = { group: ['**/worker', '**/worker/**'], caseSensitive: true, message: 'server/db is below the worker: what both need (e.g. the queue schema) lives in server/db.' };
const SERVICE_UPWARD_IMPORTS = { group: ['**/worker', '**/worker/**', '**/compose', '**/routes/**'], caseSensitive: true, message: 'Services sit below the worker and the composition root (server/compose.ts): take what you need as a dependency.' };
const DB_IMPORTS = { group: ['**/db', '**/db/**'], caseSensitive: true, message: 'Routes never touch the database: call a service (server/services) instead.' };
const JOB_TABLE_IMPORTS = { group: ['**/db/schema', '**/db/schema/**', 'drizzle-orm', 'drizzle-orm/**'], caseSensitive: true, message: 'Jobs call services, not tables: move the query into the service that owns the rows (server/services).' };

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
    files: ['src/**/*.{ts,tsx}', 'analytics/{domain,portal,dataProvider,i18n}/**/*.{ts,tsx}', 'portal/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}', 'dataProvider/**/*.{ts,tsx}', 'i18n/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_IMPORTS] }],
    },
  },
  // A later block's no-restricted-imports replaces an earlier one's for the same file, so each
  // narrower folder repeats the wider folder's patterns.
  {
    // Screens call hooks: the data layer (dataProvider/<area>/) holds the calls.
    files: ['portal/**/*.{ts,tsx}', 'src/**/*.{ts,tsx}', 'analytics/portal/**/*.{ts,tsx}'],
    ignores: [...API_CALL_EXCEPTIONS, 'src/domain/**', '**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_IMPORTS, API_CALL_IMPORTS] }],
    },
  },
  {
    // Admin and portal are siblings: what both show lives in src/ui.
    files: ['admin/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_IMPORTS, PORTAL_IMPORTS, API_CALL_IMPORTS] }],
    },
  },
  {
    // Shared widgets sit below the data layer: the screen that uses them passes the calls in.
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_IMPORTS, DATA_PROVIDER_IMPORTS] }],
    },
  },
  {
    // Dependencies point down: the database layer never reaches up into services, routes or the worker.
    files: ['server/db/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [DB_UPWARD_IMPORTS, WORKER_IMPORTS] }],
    },
  },
  {
    // The queue sits beside the database, below the services and the worker that use it.
    files: ['server/queue/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [DB_UPWARD_IMPORTS, WORKER_IMPORTS] }],
    },
  },
  {
    // Backups sit beside the database, below the jobs and services that take and restore them.
    files: ['server/backups/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [DB_UPWARD_IMPORTS, WORKER_IMPORTS, { group: ['**/jobs', '**/jobs/**'], message: 'server/backups is below the jobs: they call it, not the other way.' }] }],
    },
  },
  {
    // Services are built by the composition root and never build or import the worker themselves.
    files: ['server/services/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVICE_UPWARD_IMPORTS] }],
    },
  },
  {
    // Jobs (tasks and schedules) ask the service that owns the rows; they never build queries.
    files: ['server/jobs/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [JOB_TABLE_IMPORTS] }],
    },
  },
  {
    // Routes are schema plus a service call: queries and caches live in the services.
    files: ['server/routes/**/*.ts', 'analytics/server/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [DB_IMPORTS] }],
      'no-restricted-properties': ['error', { object: 'app', property: 'database', message: 'Routes never touch the database: call a service (server/services) instead.' }],
    },
  },
  {
    // The isomorphic domain layer must stay free of React, Node and I/O (and of the server).
    files: ['src/domain/**/*.ts', 'analytics/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_IMPORTS, { group: ['react*', 'node:*', 'fs', 'path', '@mui/*', 'drizzle-orm*', 'fastify*'], message: 'src/domain is isomorphic: no React, Node, I/O or server libraries.' }] }],
    },
  },
);
