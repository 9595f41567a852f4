// Context boundaries: a library or the app imports another context only through its index.ts
// (`@app/<context>`), never its src/** internals. Domain code stays free of framework imports.
import tseslint from 'typescript-eslint';

const contexts = ['shared-kernel', 'persistence', 'organizations-and-teams', 'spaces-and-content', 'review-and-comments'];
const internals = contexts.flatMap((c) => [`@app/${c}/*`, `**/libs/${c}/src/*`]);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/**', 'coverage/**'] },
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
            { group: [`**/libs/*/src/**`, '../../*/src/**', '../../../*/src/**'], message: 'Relative imports must not leave this library.' },
            { group: [`@app/${c}`], message: 'Inside a library use relative imports, not its own alias.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['libs/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: internals, message: "Import another context only through its index.ts ('@app/<context>')." },
            { group: ['@nestjs/*', 'typeorm', 'class-validator', 'class-transformer'], message: 'Domain code is plain TypeScript: no framework imports.' },
          ],
        },
      ],
    },
  },
);
