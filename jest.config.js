// Jest runs in native ESM mode (Nest 12 is ESM-only): see docs/stack.md.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testRegex: '(libs|apps|test)/.*\\.(spec|int-spec|e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json', 'mjs'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        useESM: true,
        tsconfig: 'tsconfig.spec.json',
        astTransformers: { before: ['<rootDir>/test/setup/swagger-transformer.js'] },
      },
    ],
  },
  moduleNameMapper: {
    '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src',
    // The Swagger plugin emits relative imports with .js; resolve them to the .ts sources.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 30000,
};
