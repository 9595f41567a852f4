import { rmSync, writeFileSync } from 'node:fs';
import { ESLint } from 'eslint';

/** The lint rule that keeps contexts apart really fires (npm test runs it over the whole tree). */
describe('context boundaries (eslint no-restricted-imports)', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  /** Lints `code` as the file `filePath` (written for the moment: the type-aware rules need it on disk). */
  const lint = async (filePath: string, code: string) => {
    const probe = filePath.replace(/x\.ts$/, `lint-probe-${process.pid}.ts`);
    writeFileSync(probe, code);
    try {
      const [result] = await eslint.lintFiles([probe]);
      return result.messages.map((m) => m.message);
    } finally {
      rmSync(probe, { force: true });
    }
  };

  it('refuses reaching into another context’s internals', async () => {
    const messages = await lint(
      'libs/spaces-and-content/src/application/x.ts',
      "import { UserRepository } from '@app/organizations-and-teams/domain/user';\n",
    );
    expect(messages.join('\n')).toMatch(/only through its index\.ts/);
  });

  it('refuses relative imports that leave the library', async () => {
    const messages = await lint(
      'libs/spaces-and-content/src/application/x.ts',
      "import { User } from '../../../organizations-and-teams/src/domain/user';\n",
    );
    expect(messages.join('\n')).toMatch(/leave this library|index\.ts/);
  });

  it('refuses framework imports in domain code', async () => {
    const messages = await lint('libs/spaces-and-content/src/domain/x.ts', "import { Injectable } from '@nestjs/common';\n");
    expect(messages.join('\n')).toMatch(/plain TypeScript/);
  });

  it('refuses framework imports in the shared kernel, and the HTTP kit or persistence in domain code', async () => {
    expect((await lint('libs/shared-kernel/src/x.ts', "import { Injectable } from '@nestjs/common';\n")).join('\n')).toMatch(
      /plain TypeScript/,
    );
    expect((await lint('libs/shared-kernel/src/x.ts', "import { IsString } from 'class-validator';\n")).join('\n')).toMatch(
      /plain TypeScript/,
    );
    expect((await lint('libs/spaces-and-content/src/domain/x.ts', "import { ListQueryDto } from '@app/http-kit';\n")).join('\n')).toMatch(
      /plain TypeScript/,
    );
    expect((await lint('libs/spaces-and-content/src/domain/x.ts', "import { Db } from '@app/persistence';\n")).join('\n')).toMatch(
      /plain TypeScript/,
    );
  });

  it('keeps the content model a leaf: no framework, no context, only the shared kernel', async () => {
    expect((await lint('libs/content-model/src/x.ts', "import { Injectable } from '@nestjs/common';\n")).join('\n')).toMatch(
      /plain TypeScript/,
    );
    expect((await lint('libs/content-model/src/x.ts', "import { SpacesService } from '@app/spaces-and-content';\n")).join('\n')).toMatch(
      /leaf/,
    );
    expect(
      await lint('libs/content-model/src/x.ts', "import { InvalidInputError } from '@app/shared-kernel';\nexport { InvalidInputError };\n"),
    ).toEqual([]);
  });

  it('keeps class-validator in *.dto.ts files, and the wire objects and HTTP kit out of application/', async () => {
    const validator = "import { IsString } from 'class-validator';\nexport class A {\n  @IsString() a!: string;\n}\n";
    expect((await lint('libs/spaces-and-content/src/http/x.ts', validator)).join('\n')).toMatch(
      /class-validator decorators belong in \*\.dto\.ts/,
    );
    expect((await lint('libs/spaces-and-content/src/application/x.ts', validator)).join('\n')).toMatch(/belong in \*\.dto\.ts/);
    expect((await lint('libs/spaces-and-content/src/http/x.dto.ts', validator)).join('\n')).not.toMatch(/belong in/);
    expect(
      (
        await lint(
          'libs/spaces-and-content/src/application/x.ts',
          "import { ListQueryDto } from '@app/http-kit';\nexport type Q = ListQueryDto;\n",
        )
      ).join('\n'),
    ).toMatch(/application\/ returns read models/);
    expect(
      (
        await lint('libs/review-and-comments/src/application/x.ts', "import { SpaceDto } from '@app/wire';\nexport type S = SpaceDto;\n")
      ).join('\n'),
    ).toMatch(/application\/ returns read models/);
    expect(
      (await lint('libs/review-and-comments/src/http/x.ts', "import { SpaceDto } from '@app/wire';\nexport type S = SpaceDto;\n")).join(
        '\n',
      ),
    ).not.toMatch(/returns read models/);
    // Another context's presenter renders for controllers, never for a use case.
    const presenter = "import { RevisionPresenter } from '@app/spaces-and-content';\nexport type P = RevisionPresenter;\n";
    expect((await lint('libs/review-and-comments/src/application/x.ts', presenter)).join('\n')).toMatch(/presenter belongs to http/);
    expect(await lint('libs/review-and-comments/src/http/x.ts', presenter)).toEqual([]);
  });

  it('allows another context’s index and the shared kernel', async () => {
    const messages = await lint(
      'libs/spaces-and-content/src/application/x.ts',
      "import { OrganizationsService } from '@app/organizations-and-teams';\n" +
        "import { Access } from '@app/access';\n" +
        "import { Clock } from '@app/shared-kernel';\nexport { OrganizationsService, Access, Clock };\n",
    );
    expect(messages).toEqual([]);
  });

  it('keeps index.ts the application API: no http/ or infrastructure/ export', async () => {
    const index = 'libs/spaces-and-content/src/index.ts';
    const linted = await new ESLint({ cwd: process.cwd() }).lintText(
      "export { S3FileStorage } from './infrastructure/s3-file-storage';\n",
      {
        filePath: index,
      },
    );
    expect(linted[0].messages.map((m) => m.message).join('\n')).toMatch(/never http\/ or infrastructure\//);
    const http = await new ESLint({ cwd: process.cwd() }).lintText("export { ContentController } from './http/content.controller';\n", {
      filePath: index,
    });
    expect(http[0].messages.map((m) => m.message).join('\n')).toMatch(/never http\/ or infrastructure\//);
    const ok = await new ESLint({ cwd: process.cwd() }).lintText("export { SpacesService } from './application/spaces.service';\n", {
      filePath: index,
    });
    expect(ok[0].messages).toEqual([]);
    // A presenter is the one http/ name other contexts' controllers may use.
    const presenter = await new ESLint({ cwd: process.cwd() }).lintText(
      "export { RevisionPresenter } from './http/revision-presenter';\n",
      { filePath: index },
    );
    expect(presenter[0].messages).toEqual([]);
  });

  it('keeps access a leaf: it asks no context', async () => {
    expect(
      (
        await lint(
          'libs/access/src/application/x.ts',
          "import { SpacesService } from '@app/spaces-and-content';\nexport { SpacesService };\n",
        )
      ).join('\n'),
    ).toMatch(/Access is a leaf/);
    expect(await lint('libs/access/src/application/x.ts', "import { Db } from '@app/persistence';\nexport { Db };\n")).toEqual([]);
  });

  it('keeps the wire objects free of every context, types included', async () => {
    expect(
      (await lint('libs/wire/src/x.ts', "import { SpacesService } from '@app/spaces-and-content';\nexport { SpacesService };\n")).join(
        '\n',
      ),
    ).toMatch(/import no context, types included/);
    expect(
      (await lint('libs/wire/src/x.ts', "import type { Space } from '@app/spaces-and-content';\nexport type { Space };\n")).join('\n'),
    ).toMatch(/import no context, types included/);
    expect(await lint('libs/wire/src/x.ts', "import type { PageNode } from '@app/content-model';\nexport type { PageNode };\n")).toEqual(
      [],
    );
  });
});
