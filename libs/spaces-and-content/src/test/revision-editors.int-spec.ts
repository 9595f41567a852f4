import { Db } from '@app/persistence';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { CONTENT_ENTITIES } from '../infrastructure/orm-entities';
import { SqlRevisionRepository } from '../infrastructure/revisions.repository';

/**
 * RevisionRepository.editors against a real PostgreSQL: the authors of a line of work's own `edits`
 * (a change request's contributors), whatever main did meanwhile.
 */
describe('the editors of a line of work (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let revisions: SqlRevisionRepository;
  let minute = 0;

  /** A revision of space s1: its first parent (and second), its type and author. */
  const rev = (id: string, parents: string[], type: string, by: string | null) =>
    ds.query(
      `INSERT INTO revisions (id, organization_id, space_id, parents, type, tree, created_at, created_by) VALUES ($1, 'org1', 's1', $2, $3, '[]', $4, $5)`,
      [id, parents, type, new Date(Date.UTC(2026, 0, 1, 0, minute++)), by],
    );
  const editors = async (head: string, base: string, start: string) =>
    (await revisions.editors('s1', head, base, start)).map((e) => [e.userId, e.count]);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: CONTENT_ENTITIES });
    await ds.initialize();
    revisions = new SqlRevisionRepository(new Db(ds));
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('counts the work’s own edits, not main’s edits it was fast-forwarded to, nor those before it started', async () => {
    // Main: R0 (an import by ann) → E1 (a template applied by tom, an `edits` revision on main) → M2 (a merge).
    await rev('R0', [], 'edits', 'ann');
    await rev('E1', ['R0'], 'edits', 'tom');
    await rev('M2', ['E1', 'x'], 'merge', 'tom');
    // The work starts at R0, is brought up to date with nothing of its own (its head becomes E1), then bob
    // edits twice (b1, b2), then it is brought up to date with M2 (U2, an update by sue), then bob again.
    await rev('b1', ['E1'], 'edits', 'bob');
    await rev('b2', ['b1'], 'edits', 'bob');
    await rev('U2', ['b2', 'M2'], 'update', 'sue');
    await rev('b3', ['U2'], 'edits', 'bob');
    expect(await editors('b3', 'M2', 'R0')).toEqual([['bob', 3]]);
    // Before the second update its base was E1: the same.
    expect(await editors('b2', 'E1', 'R0')).toEqual([['bob', 2]]);
    // Fast-forwarded and nothing written: nobody.
    expect(await editors('E1', 'E1', 'R0')).toEqual([]);
    expect(await editors('R0', 'R0', 'R0')).toEqual([]);
    // Without the base, main's edit would count: the base is what keeps it out.
    expect(await editors('b3', 'R0', 'R0')).toEqual([
      ['bob', 3],
      ['tom', 1],
    ]);
  });
});
