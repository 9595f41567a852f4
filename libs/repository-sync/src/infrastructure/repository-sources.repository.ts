import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import type { RepositorySources } from '@app/content-model';
import { RepositorySourceRepository } from '../domain/repository-sources';

interface Row {
  kind: 'page' | 'reusable' | 'file' | 'summary' | 'config' | 'vars';
  key: string;
  path: string | null;
  digest: string;
  body: string | null;
}

@Injectable()
export class SqlRepositorySourceRepository extends RepositorySourceRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async load(spaceId: string): Promise<RepositorySources | null> {
    const rows: Row[] = await this.db.query('SELECT kind, key, path, digest, body FROM repository_sources WHERE space_id = $1', [spaceId]);
    if (!rows.length) return null;
    const sources: RepositorySources = { pages: new Map(), reusable: new Map(), files: new Map(), summary: null, config: null, root: '' };
    for (const r of rows) {
      if (r.kind === 'page') sources.pages.set(r.key, { path: r.path, markdown: r.body, digest: r.digest });
      else if (r.kind === 'reusable') sources.reusable.set(r.key, { path: r.path, markdown: r.body, digest: r.digest });
      else if (r.kind === 'vars' && r.path && r.body !== null) sources.variables = { path: r.path, text: r.body, digest: r.digest };
      else if (r.kind === 'file' && r.path) sources.files.set(r.key, r.path);
      else if (r.kind === 'summary' && r.path && r.body !== null) sources.summary = { path: r.path, markdown: r.body, digest: r.digest };
      else if (r.kind === 'config') {
        sources.config = r.body;
        sources.root = r.path ?? '';
      }
    }
    return sources;
  }

  async save(spaceId: string, s: RepositorySources): Promise<void> {
    const rows: Row[] = [
      ...[...s.pages].map(([key, p]): Row => ({ kind: 'page', key, path: p.path, digest: p.digest, body: p.markdown })),
      ...[...s.reusable].map(([key, p]): Row => ({ kind: 'reusable', key, path: p.path, digest: p.digest, body: p.markdown })),
      ...[...s.files].map(([key, path]): Row => ({ kind: 'file', key, path, digest: '', body: null })),
      ...(s.variables
        ? [{ kind: 'vars' as const, key: '', path: s.variables.path, digest: s.variables.digest, body: s.variables.text }]
        : []),
      { kind: 'config', key: '', path: s.root, digest: '', body: s.config },
      ...(s.summary
        ? [{ kind: 'summary' as const, key: '', path: s.summary.path, digest: s.summary.digest, body: s.summary.markdown }]
        : []),
    ];
    await this.db.transaction(async () => {
      await this.db.query('DELETE FROM repository_sources WHERE space_id = $1', [spaceId]);
      for (let i = 0; i < rows.length; i += 1000) {
        const chunk = rows.slice(i, i + 1000);
        await this.db.query(
          `INSERT INTO repository_sources (space_id, kind, key, path, digest, body)
           SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
`,
          [
            spaceId,
            chunk.map((r) => r.kind),
            chunk.map((r) => r.key),
            chunk.map((r) => r.path),
            chunk.map((r) => r.digest),
            chunk.map((r) => r.body),
          ],
        );
      }
    });
  }
}
