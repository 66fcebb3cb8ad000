/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
    // jose, json-schema-ref-parser (openapi-backend's, in the conformance check), dinero.js and
    // temporal-polyfill (with its temporal-utils) ship ES modules only;
    // Node 20.19+ loads them with require(), jest needs them compiled.
    '^.+/node_modules/(jose|@apidevtools/json-schema-ref-parser|dinero\\.js|temporal-polyfill|temporal-utils)/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose|@apidevtools/json-schema-ref-parser|dinero\\.js|temporal-polyfill|temporal-utils)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
  cacheDirectory: '<rootDir>/.jest-cache',
};
