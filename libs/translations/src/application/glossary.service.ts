import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  pageInMemory,
  UnitOfWork,
  type Language,
} from '@app/shared-kernel';
import { ContentAccess, requireRole } from '@app/spaces-and-content';
import {
  checkTranslations,
  checkUniqueTerms,
  GLOSSARY_ENTRIES_MAX,
  GLOSSARY_OPERATIONS_MAX,
  GlossaryEntry,
  GlossaryOperation,
  GlossaryRepository,
  termKey,
} from '../domain/glossary';

/**
 * The organization's translation glossary (official listGlossaryEntries, getGlossaryEntry, updateGlossaryEntries).
 * Members read it; members who manage translations (role `create` and up) change it, one batch at a time per
 * organization: a batch is applied whole or not at all, and a term of one language names one entry only.
 */
@Injectable()
export class GlossaryService {
  constructor(
    private readonly repo: GlossaryRepository,
    private readonly access: ContentAccess,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** In creation order, or by the term in `orderBy`'s language (entries without one last). */
  async list(actor: Actor, organizationId: string, orderBy: Language | undefined, page: PageRequest): Promise<Page<GlossaryEntry>> {
    await this.access.memberRole(organizationId, actor, 'Organization', organizationId);
    const entries = await this.repo.all(organizationId);
    const created = (e: GlossaryEntry) => String(e.seq ?? 0).padStart(16, '0');
    const key = orderBy
      ? (e: GlossaryEntry) => {
          const term = e.translations[orderBy];
          return `${term === undefined ? '1' : `0${termKey(term)}`}\u0001${created(e)}`;
        }
      : created;
    return pageInMemory(entries, key, page);
  }

  async get(actor: Actor, organizationId: string, id: string): Promise<GlossaryEntry> {
    await this.access.memberRole(organizationId, actor, 'Organization', organizationId);
    const entry = await this.repo.find(organizationId, id);
    if (!entry) throw new NotFoundError('Glossary entry', id);
    return entry;
  }

  /**
   * A batch of inserts, updates (the entry's terms replaced) and deletes, in order. An update of an entry that is
   * not there is a 400 and nothing is written; a delete of one that is not there does nothing (a retried batch).
   */
  async update(actor: Actor, organizationId: string, operations: GlossaryOperation[]): Promise<void> {
    requireRole(await this.access.memberRole(organizationId, actor, 'Organization', organizationId), 'create', 'Changing the glossary');
    if (operations.length > GLOSSARY_OPERATIONS_MAX) throw new InvalidInputError(`At most ${GLOSSARY_OPERATIONS_MAX} operations at once`);
    // Checked before anything is read or locked.
    const checked = operations.map((op, i) =>
      op.type === 'delete' ? op : { ...op, translations: checkTranslations(op.translations, `operations[${i}]`) },
    );
    await this.uow.run(async () => {
      await this.repo.lock(organizationId);
      const before = new Map((await this.repo.all(organizationId)).map((e) => [e.id, e]));
      const after = new Map(before);
      const now = this.clock.now();
      checked.forEach((op, i) => {
        if (op.type === 'insert') {
          const id = this.ids.next();
          after.set(id, { id, organizationId, translations: op.translations, createdAt: now, updatedAt: now });
        } else if (op.type === 'update') {
          const entry = after.get(op.id);
          if (!entry) throw new InvalidInputError(`operations[${i}]: the glossary has no entry "${op.id}"`);
          after.set(op.id, { ...entry, translations: op.translations, updatedAt: now });
        } else after.delete(op.id);
      });
      if (after.size > GLOSSARY_ENTRIES_MAX) throw new InvalidInputError(`A glossary holds at most ${GLOSSARY_ENTRIES_MAX} entries`);
      checkUniqueTerms([...after.values()]);
      await this.repo.write(organizationId, {
        deleted: [...before.keys()].filter((id) => !after.has(id)),
        updated: [...after.values()].filter((e) => before.has(e.id) && before.get(e.id) !== e),
        inserted: [...after.values()].filter((e) => !before.has(e.id)),
      });
    });
  }
}
