import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  Actor,
  Clock,
  ContextEvents,
  DomainEvents,
  IdGenerator,
  InvalidInputError,
  JobQueue,
  NotFoundError,
  Page,
  PageRequest,
  Role,
  roleAtLeast,
  UnitOfWork,
  Language,
} from '@app/shared-kernel';
import {
  checkDocumentInput,
  contentHash,
  countWords,
  documentText,
  JsonDocument,
  prepareDocument,
  PreparedDocument,
  titleFragment,
  titleFrom,
  walk,
} from '@app/content-model';
import { ContentAccess, ContentService, isGone, requireRole, SpacesService } from '@app/spaces-and-content';
import {
  durationSeconds,
  pagesOf,
  pagesToTranslate,
  targetTree,
  Translation,
  TranslationRepository,
  TranslationStats,
  ZERO_STATS,
} from '../domain/translation';
import { LanguagePair, PairUnavailableError, Translator } from '../domain/translator';
import { GlossaryRepository, termsFingerprint, termsFor } from '../domain/glossary';
import { protectTerms } from '../domain/glossary-terms';

export const RUN_QUEUE = 'translations-run';
export const SWEEP_QUEUE = 'translations-sweep';
/** A wanted run not taken after this is sent again by the sweep (a lost job, a process without jobs). */
export const WAITING_GRACE_MS = 60_000;
/** A run going on for longer than this is taken to have died with its process and is run again. */
export const STALE_RUN_MS = 30 * 60_000;
/** Fragments per call to the translator. */
export const FRAGMENTS_PER_CALL = 200;
export const INSTRUCTIONS_MARKDOWN_MAX = 20_000;

/** `translation.completed` `{space, revision, pages, words}`, `translation.failed` `{error}`. */
export const TRANSLATION_EVENT_TYPES = ['translation.completed', 'translation.failed'] as const;

@Injectable()
export class TranslationEvents extends ContextEvents<(typeof TRANSLATION_EVENT_TYPES)[number]> {
  constructor(events: DomainEvents, uow: UnitOfWork, clock: Clock) {
    super(events, uow, clock);
  }
}

export interface TranslationView {
  translation: Translation;
  role: Role;
}

export interface CreateTranslationInput {
  language: Language;
  source: { space: string; language: Language };
  instructions?: unknown;
}

const EMPTY: JsonDocument = { object: 'document', data: {}, nodes: [] };

/** A run that cannot go on; its message is what the translation records. */
class RunFailure extends Error {}
/** The translation was deleted during the run, or its run was taken over as stale: the run keeps nothing. */
class Superseded extends Error {}

/**
 * Translations of a space into another language (official list/create/get/update/delete/runTranslation).
 * Members read them; members who may create spaces (role `create` and up) manage them and need to see the
 * source space. A run is a background job (see `run`).
 */
@Injectable()
export class TranslationsService implements OnModuleInit {
  private readonly logger = new Logger('Translations');

  constructor(
    private readonly repo: TranslationRepository,
    private readonly spacesService: SpacesService,
    private readonly content: ContentService,
    private readonly access: ContentAccess,
    private readonly translator: Translator,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly events: TranslationEvents,
    private readonly glossary: GlossaryRepository,
  ) {}

  onModuleInit(): void {
    this.jobs.work(RUN_QUEUE, async (data) => {
      await this.run(String(data.translationId));
    });
    this.jobs.work(SWEEP_QUEUE, async () => {
      await this.sweep();
    });
    this.jobs.schedule(SWEEP_QUEUE, '* * * * *');
  }

  async list(actor: Actor, organizationId: string, page: PageRequest): Promise<Page<TranslationView>> {
    const role = await this.access.memberRole(organizationId, actor, 'Organization', organizationId);
    const result = await this.repo.list(organizationId, page);
    return { ...result, items: result.items.map((translation) => ({ translation, role })) };
  }

  async get(actor: Actor, organizationId: string, id: string): Promise<TranslationView> {
    const role = await this.access.memberRole(organizationId, actor, 'Translation', id);
    const translation = await this.repo.find(organizationId, id);
    if (!translation) throw new NotFoundError('Translation', id);
    return { translation, role };
  }

  async create(actor: Actor, organizationId: string, input: CreateTranslationInput): Promise<TranslationView> {
    // Checks, and the translator's language list (an outbound request), before any unit of work opens.
    const { role, source } = await this.uow.outside(() => this.checkCreate(actor, organizationId, input));
    const instructions =
      input.instructions === undefined ? EMPTY : checkDocumentInput(input.instructions, 'instructions', INSTRUCTIONS_MARKDOWN_MAX).document;
    const now = this.clock.now();
    const translation: Translation = {
      id: this.ids.next(),
      organizationId,
      sourceSpaceId: source.id,
      sourceLanguage: input.source.language,
      language: input.language,
      instructions,
      status: 'pending',
      targetSpaceId: null,
      resultRevision: null,
      stats: ZERO_STATS,
      latestRun: null,
      pages: {},
      glossary: '',
      requestedAt: now,
      runStartedAt: null,
      createdAt: now,
      updatedAt: now,
      createdBy: actor.userId,
    };
    // Creating a translation starts its first run.
    await this.uow.run(async () => {
      await this.repo.insert(translation);
      this.jobs.send(RUN_QUEUE, { translationId: translation.id }, translation.id);
    });
    return { translation, role };
  }

  private async checkCreate(actor: Actor, organizationId: string, input: CreateTranslationInput) {
    const role = await this.access.memberRole(organizationId, actor, 'Organization', organizationId);
    requireRole(role, 'create', 'Creating a translation');
    const source = await this.spacesService.find(input.source.space);
    if (!source || source.organizationId !== organizationId || source.deletedAt)
      throw new InvalidInputError(`source.space: space "${input.source.space}" not found in this organization`);
    requireRole(await this.access.spaceRole(source, actor), 'read', 'Translating a space');
    if (input.source.language === input.language) throw new InvalidInputError('language: the target language is the source language');
    await this.requirePair({ source: input.source.language, target: input.language });
    return { role, source };
  }

  async updateInstructions(actor: Actor, organizationId: string, id: string, instructions: unknown): Promise<TranslationView> {
    const { role } = await this.manage(actor, organizationId, id, 'Updating a translation');
    const { document } = checkDocumentInput(instructions, 'instructions', INSTRUCTIONS_MARKDOWN_MAX);
    const updated = await this.repo.setInstructions(id, document, this.clock.now());
    if (!updated) throw new NotFoundError('Translation', id);
    return { translation: updated, role };
  }

  /** The target space stays (it is a space of the organization like any other). */
  async delete(actor: Actor, organizationId: string, id: string): Promise<'deleted' | 'absent'> {
    let role: Role;
    try {
      role = await this.access.memberRole(organizationId, actor, 'Translation', id);
    } catch (e) {
      if (e instanceof NotFoundError) return 'absent';
      throw e;
    }
    if (!(await this.repo.find(organizationId, id))) return 'absent';
    requireRole(role, 'create', 'Deleting a translation');
    return (await this.repo.delete(organizationId, id)) ? 'deleted' : 'absent';
  }

  /** POST …/run: a run is wanted (one at a time; a run asked for during a run follows it). */
  async requestRun(actor: Actor, organizationId: string, id: string): Promise<void> {
    // The translator's language list (an outbound request) before the unit of work opens.
    await this.uow.outside(async () => {
      const { translation } = await this.manage(actor, organizationId, id, 'Running a translation');
      await this.requirePair({ source: translation.sourceLanguage, target: translation.language });
    });
    await this.uow.run(async () => {
      if (!(await this.repo.request(id, this.clock.now()))) throw new NotFoundError('Translation', id);
      this.jobs.send(RUN_QUEUE, { translationId: id }, id);
    });
  }

  async sweep(): Promise<number> {
    const now = this.clock.now().getTime();
    const waiting = await this.repo.waiting(new Date(now - WAITING_GRACE_MS), new Date(now - STALE_RUN_MS));
    for (const id of waiting) this.jobs.send(RUN_QUEUE, { translationId: id }, id);
    return waiting.length;
  }

  /**
   * One run (the job): takes the wanted run (compare-and-set: one run at a time), translates the pages
   * that changed since the last completed run, and writes the target space's next revision and the
   * translation's result in one unit of work. A run that fails records why and writes no content.
   */
  async run(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    const startedAt = this.clock.now();
    const claimed = await this.repo.claim(id, startedAt, new Date(startedAt.getTime() - STALE_RUN_MS));
    if (!claimed) return 'skipped';
    let outcome: 'completed' | 'failed' | 'skipped';
    try {
      outcome = (await this.translate(claimed, startedAt)) ? 'completed' : 'skipped';
    } catch (e) {
      const message = e instanceof RunFailure || e instanceof PairUnavailableError ? e.message : `The run failed: ${errorText(e)}`;
      if (!(e instanceof RunFailure || e instanceof PairUnavailableError)) this.logger.error(`translation ${id}: ${errorText(e)}`);
      await this.fail(claimed, startedAt, message);
      outcome = 'failed';
    }
    // A run asked for while this one ran.
    const after = await this.repo.findById(id);
    if (after?.requestedAt) this.jobs.send(RUN_QUEUE, { translationId: id }, id);
    return outcome;
  }

  private async translate(t: Translation, startedAt: Date): Promise<boolean> {
    const source = await this.spacesService.find(t.sourceSpaceId);
    if (!source || source.deletedAt) throw new RunFailure(`The source space "${t.sourceSpaceId}" was deleted`);
    if (source.organizationId !== t.organizationId) throw new RunFailure(`The source space "${t.sourceSpaceId}" left the organization`);
    const pair = { source: t.sourceLanguage, target: t.language };
    await this.translator.require(pair);
    const sourceRevision = await this.content.revision(source.id, source.revision);
    let target = t.targetSpaceId ? await this.spacesService.find(t.targetSpaceId) : null;
    // A target deleted (or moved away) since the last run is replaced by a new one.
    if (target && (target.deletedAt || isGone(target, startedAt) || target.organizationId !== t.organizationId)) target = null;
    const targetRevision = target ? await this.content.revision(target.id, target.revision) : null;
    // The glossary's terms for the pair: when they changed since the last run, every page is translated again.
    const terms = termsFor(await this.glossary.all(t.organizationId), pair);
    const glossary = termsFingerprint(terms);
    const todo = pagesToTranslate(sourceRevision.tree, glossary === t.glossary ? t.pages : {}, targetRevision?.tree ?? null);

    const nodes: { id: string; title: string; path: string; document: string | null }[] = [];
    walk(sourceRevision.tree, ({ node, path }) => {
      if (todo.has(node.id)) nodes.push({ id: node.id, title: node.title, path, document: node.document });
    });
    const bodies = await this.content.documents(t.organizationId, [...new Set(nodes.flatMap((n) => (n.document ? [n.document] : [])))]);
    let words = 0;
    const fragments: string[] = [];
    const pages = nodes.map((node) => {
      const doc = node.document ? bodies.get(node.document) : undefined;
      const prepared: PreparedDocument | null = doc ? prepareDocument(doc) : null;
      const title = fragments.push(titleFragment(node.title)) - 1;
      const from = fragments.length;
      fragments.push(...(prepared?.fragments ?? []));
      words += countWords(node.title) + (prepared?.words ?? 0);
      return { ...node, prepared, titleAt: title, body: [from, fragments.length] as const };
    });
    const instructions = documentText(t.instructions);
    const sent = protectTerms(fragments, terms);
    const received: string[] = [];
    for (let i = 0; i < fragments.length; i += FRAGMENTS_PER_CALL)
      received.push(...(await this.translator.translate(sent.fragments.slice(i, i + FRAGMENTS_PER_CALL), pair, instructions)));
    let translated: string[];
    try {
      translated = sent.restore(received);
    } catch (e) {
      throw new RunFailure(`The translator lost a glossary term (${errorText(e)}): nothing was written`);
    }

    const documents = new Map<string, JsonDocument>();
    const results = new Map<string, { title: string; document: string | null }>();
    for (const page of pages) {
      let document = page.document;
      if (page.prepared) {
        let doc: JsonDocument;
        try {
          doc = page.prepared.rebuild(translated.slice(page.body[0], page.body[1]));
        } catch (e) {
          throw new RunFailure(`The translation of page "${page.path}" lost its markup (${errorText(e)}): nothing was written`);
        }
        document = contentHash(doc);
        documents.set(document, doc);
      }
      results.set(page.id, { title: titleFrom(translated[page.titleAt]) || page.title, document });
    }
    const tree = targetTree(sourceRevision.tree, results, targetRevision?.tree ?? null);

    const finishedAt = this.clock.now();
    const duration = durationSeconds(startedAt, finishedAt);
    const everTranslated = new Set([...Object.keys(t.pages), ...todo]);
    const stats: TranslationStats = {
      runs: t.stats.runs + 1,
      totalWords: t.stats.totalWords + words,
      totalPages: Math.max(t.stats.totalPages, everTranslated.size),
      totalDuration: t.stats.totalDuration + duration,
      latestRunDuration: duration,
      latestPages: todo.size,
      latestWords: words,
    };
    const translatorName = await this.translator.nameFor(pair);
    const written = await this.uow
      .run(async () => {
        const space = target ?? (await this.spacesService.createTranslationTarget(source, t.language, t.createdBy));
        const revision = await this.content.replaceContent(space.id, tree, sourceRevision.files, documents, t.createdBy);
        const done: Translation = {
          ...t,
          status: 'completed',
          targetSpaceId: space.id,
          resultRevision: revision.id,
          stats,
          latestRun: { status: 'completed', startedAt, finishedAt, translator: translatorName, error: null },
          pages: pagesOf(sourceRevision.tree),
          glossary,
          updatedAt: finishedAt,
        };
        // Deleted meanwhile, or its run taken over as stale: nothing of this run is kept.
        if (!(await this.repo.finish(done, startedAt))) throw new Superseded();
        this.events.publish('translation.completed', t.organizationId, t.createdBy, {
          translation: t.id,
          space: space.id,
          revision: revision.id,
          pages: todo.size,
          words,
        });
        return space;
      })
      .catch((e: unknown) => {
        if (e instanceof Superseded) return null;
        throw e;
      });
    if (!written) return false;
    await this.content.refreshSearch(written.id);
    return true;
  }

  private async fail(t: Translation, startedAt: Date, error: string): Promise<void> {
    const finishedAt = this.clock.now();
    const duration = durationSeconds(startedAt, finishedAt);
    const failed: Translation = {
      ...t,
      // The official status has no `failed`: the translation waits for a run that succeeds.
      status: 'pending',
      stats: {
        ...t.stats,
        runs: t.stats.runs + 1,
        totalDuration: t.stats.totalDuration + duration,
        latestRunDuration: duration,
        latestPages: 0,
        latestWords: 0,
      },
      latestRun: { status: 'failed', startedAt, finishedAt, translator: null, error },
      updatedAt: finishedAt,
    };
    await this.uow.run(async () => {
      if (await this.repo.finish(failed, startedAt))
        this.events.publish('translation.failed', t.organizationId, t.createdBy, { translation: t.id, error });
    });
  }

  private async manage(actor: Actor, organizationId: string, id: string, action: string): Promise<TranslationView> {
    const view = await this.get(actor, organizationId, id);
    requireRole(view.role, 'create', action);
    return view;
  }

  private async requirePair(pair: LanguagePair): Promise<void> {
    try {
      await this.translator.require(pair);
    } catch (e) {
      if (e instanceof PairUnavailableError) throw new InvalidInputError(e.message);
      throw e;
    }
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** What the permissions object says: everyone in the organization views, `create` and up edit. */
export function translationPermissions(role: Role): { view: boolean; edit: boolean } {
  return { view: true, edit: roleAtLeast(role, 'create') };
}
