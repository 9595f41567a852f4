import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Request and response classes live in `*.dto.ts` files: the Swagger CLI plugin reads only those
 * (nest-cli.json `dtoFileNameSuffix`), and a class declared in a controller loses every undecorated field
 * from the served document. A `…Dto` class anywhere else in apps/ or libs/ is refused.
 */
const ROOT = process.cwd();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' || name === 'node_modules' ? [] : sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('DTO classes', () => {
  it('are declared only in *.dto.ts files', () => {
    const outside = [...sources(join(ROOT, 'apps')), ...sources(join(ROOT, 'libs'))]
      .filter((f) => !f.endsWith('.dto.ts'))
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/^\s*(?:export )?(?:abstract )?class (\w+Dto)\b/gm)].map(
          (m) => `${relative(ROOT, f)}: ${m[1]}`,
        ),
      );
    expect(outside).toEqual([]);
  });
});
