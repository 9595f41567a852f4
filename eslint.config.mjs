// Context boundaries: a library or the app imports another context only through its index.ts
// (`@app/<context>`), never its src/** internals. Domain code stays free of framework imports.
import tseslint from 'typescript-eslint';

const contexts = [
  'shared-kernel',
  'content-model',
  'access',
  'http-kit',
  'persistence',
  'organizations-and-teams',
  'spaces-and-content',
  'translations',
  'repository-sync',
  'review-and-comments',
  'sites-and-publishing',
  'openapi-specs',
  'conversations',
  'site-insights',
  'audit-and-webhooks',
];
// What plain-TypeScript code (domain folders, the kernel, the leaves) may not import.
const FRAMEWORK = ['@nestjs/*', 'typeorm', 'class-validator', 'class-transformer', 'express', 'pg', '@app/http-kit', '@app/persistence'];
const CLASS_VALIDATOR_IN_DTOS = {
  selector: "ImportDeclaration[source.value='class-validator']",
  message: 'class-validator decorators belong in *.dto.ts files (the Swagger plugin documents only those).',
};
const internals = contexts.flatMap((c) => [`@app/${c}/*`, `**/libs/${c}/src/*`]);

export default tseslint.config(
  { ignores: ['dist/**', 'apps/web/**', 'node_modules/**', 'bench/**', 'coverage/**', '*.mjs', '*.js', 'test/**/*.mjs', 'test/setup/*.js'] },
  ...tseslint.configs.recommendedTypeChecked.map((c) => ({ ...c, files: ['**/*.ts'] })),
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read supertest bodies, which are `any` by design: typing every response would add noise, not safety.
    files: ['test/**/*.ts', 'libs/*/src/test/**/*.ts', 'apps/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // In-memory fakes implement async ports without awaiting anything.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: internals, message: "Import another context only through its index.ts ('@app/<context>')." }] },
      ],
    },
  },
  ...contexts.map((c) => ({
    files: [`libs/${c}/src/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: internals, message: "Import another context only through its index.ts ('@app/<context>')." },
            {
              group: [`**/libs/*/src/**`, '../../*/src/**', '../../../*/src/**'],
              message: 'Relative imports must not leave this library.',
            },
            { group: [`@app/${c}`], message: 'Inside a library use relative imports, not its own alias.' },
          ],
        },
      ],
    },
  })),
  {
    // The kernel and every domain folder are plain TypeScript: no framework, no HTTP kit, no persistence.
    files: [
      'libs/*/src/domain/**/*.ts',
      'libs/shared-kernel/src/**/*.ts',
      'libs/content-model/src/**/*.ts',
      'libs/access/src/domain/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: internals, message: "Import another context only through its index.ts ('@app/<context>')." },
            {
              group: FRAMEWORK,
              message: 'Domain code and the shared kernel are plain TypeScript: no framework imports.',
            },
          ],
        },
      ],
    },
  },
  {
    // The content model is a leaf: plain TypeScript that every context may use, and that uses none of them.
    files: ['libs/content-model/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: FRAMEWORK,
              message: 'Domain code and the shared kernel are plain TypeScript: no framework imports.',
            },
            { group: ['@app/*', '!@app/shared-kernel'], message: 'The content model is a leaf: it imports only the shared kernel.' },
            {
              group: ['**/libs/*/src/**', '../../*/src/**', '../../../*/src/**'],
              message: 'Relative imports must not leave this library.',
            },
          ],
        },
      ],
    },
  },
  {
    // Access is a leaf too: every context asks it who may do what; it asks none of them.
    files: ['libs/access/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@app/*', '!@app/shared-kernel', '!@app/persistence'],
              message: 'Access is a leaf: it imports only the shared kernel and persistence.',
            },
            {
              group: ['**/libs/*/src/**', '../../*/src/**', '../../../*/src/**'],
              message: 'Relative imports must not leave this library.',
            },
          ],
        },
      ],
    },
  },
  {
    // Access's domain: the leaf rule and the plain-TypeScript rule together (the later block wins for a file).
    files: ['libs/access/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: FRAMEWORK,
              message: 'Domain code and the shared kernel are plain TypeScript: no framework imports.',
            },
            { group: ['@app/*', '!@app/shared-kernel'], message: 'Access is a leaf: it imports only the shared kernel and persistence.' },
            {
              group: ['**/libs/*/src/**', '../../*/src/**', '../../../*/src/**'],
              message: 'Relative imports must not leave this library.',
            },
          ],
        },
      ],
    },
  },
  {
    // The site renderer is a leaf: documents to HTML, from the content model only; no framework, no I/O.
    files: ['libs/site-renderer/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: FRAMEWORK,
              message: 'The site renderer is plain TypeScript: no framework imports.',
            },
            {
              group: ['@app/*', '!@app/shared-kernel', '!@app/content-model'],
              message: 'The site renderer is a leaf: it imports only the content model and the kernel.',
            },
            {
              group: ['**/libs/*/src/**', '../../*/src/**', '../../../*/src/**'],
              message: 'Relative imports must not leave this library.',
            },
          ],
        },
      ],
    },
  },
  ...contexts.map((c) => ({
    // A library's index.ts is its public surface: the application API, ports and the module, never its
    // HTTP layer or its adapters (wire objects several contexts share live in @app/wire).
    files: [`libs/${c}/src/index.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: internals, message: "Import another context only through its index.ts ('@app/<context>')." },
            {
              // A presenter (http/*-presenter.ts) is the one http/ name it may export: other contexts'
              // controllers render this context's read models with it (RevisionPresenter).
              regex: '^\\./(http(/(?!.*-presenter$).*)?|infrastructure(/.*)?)$',
              message: 'index.ts exports the application API and ports, never http/ or infrastructure/ names (presenters aside).',
            },
            {
              group: [`**/libs/*/src/**`, '../../*/src/**', '../../../*/src/**'],
              message: 'Relative imports must not leave this library.',
            },
            { group: [`@app/${c}`], message: 'Inside a library use relative imports, not its own alias.' },
          ],
        },
      ],
    },
  })),
  {
    // The shared wire objects sit below every context's HTTP layer: they use only the leaves (kernel, HTTP
    // kit, content model, access), and no context at all, not even as types: they declare the input shapes.
    files: ['libs/wire/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@app/*', '!@app/shared-kernel', '!@app/http-kit', '!@app/content-model', '!@app/access'],
              message:
                'The wire objects import no context, types included: declare the input shape you need (the domain types match it structurally), take functions rather than services.',
            },
          ],
        },
      ],
    },
  },
  {
    // Request validation is declared on DTOs, in *.dto.ts files (the Swagger CLI plugin reads only those):
    // class-validator nowhere else but the HTTP kit, which defines the shared decorators.
    files: ['libs/*/src/**/*.ts', 'apps/**/*.ts'],
    ignores: ['**/*.dto.ts', 'libs/http-kit/src/**', '**/*.spec.ts', '**/test/**', 'apps/api/src/http/validation-metadata-memo.ts'],
    rules: { 'no-restricted-syntax': ['error', CLASS_VALIDATOR_IN_DTOS] },
  },
  {
    // Use cases return read models: the wire objects, the HTTP kit and presenters belong to http/.
    files: ['libs/*/src/application/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        CLASS_VALIDATOR_IN_DTOS,
        {
          selector: 'ImportDeclaration[source.value=/^@app\\/(wire|http-kit)$/]',
          message: 'application/ returns read models: @app/wire and @app/http-kit belong to http/ (presenters and DTOs).',
        },
        {
          selector: 'ImportDeclaration[source.value=/^@app\\//] > ImportSpecifier[imported.name=/Presenter$/]',
          message: "application/ returns read models: another context's presenter belongs to http/.",
        },
      ],
    },
  },
);
