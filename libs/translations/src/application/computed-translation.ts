import { Injectable, Logger } from '@nestjs/common';
import { Access } from '@app/access';
import {
  Clock,
  ConflictError,
  DomainError,
  FixedWindows,
  InvalidInputError,
  NotFoundError,
  TooManyRequestsError,
  UpstreamError,
} from '@app/shared-kernel';
import { documentText, prepareDocument, walk, type JsonDocument } from '@app/content-model';
import {
  ContentService,
  SpacesService,
  type ComputedContext,
  type ComputedRevision,
  type ComputedSource,
  type ComputedSourceHandler,
} from '@app/spaces-and-content';
import { Translation, TranslationRepository } from '../domain/translation';
import { PairUnavailableError, Translator } from '../domain/translator';
import { GlossaryRepository, termsFor } from '../domain/glossary';
import { protectTerms } from '../domain/glossary-terms';
import { FRAGMENTS_PER_CALL } from './translations.service';

/**
 * `builtin:translation` computed content (#52): `dependencies.translation.ref` names one of the organization's
 * translations. A document (`props: {space, document}`, a body of the translation's source space) is translated
 * now, by the translator runs use, with the glossary applied; a revision is the translation's latest result
 * (its runs compute it: translating a whole space is a run, not a request). Members of the organization who
 * read the spaces involved may compute.
 */
/** Documents one caller may have translated a minute (per process): each is calls to a translator, maybe a paid one. */
export const COMPUTED_TRANSLATIONS_PER_MINUTE = 10;
/** Characters of text one computed document may send to the translator (a long page is a run's work). */
export const COMPUTED_TRANSLATION_MAX_CHARS = 100_000;

@Injectable()
export class ComputedTranslation implements ComputedSourceHandler {
  private readonly logger = new Logger('ComputedTranslation');
  private readonly calls = new FixedWindows(60_000);

  constructor(
    private readonly clock: Clock,
    private readonly translations: TranslationRepository,
    private readonly access: Access,
    private readonly spaces: SpacesService,
    private readonly content: ContentService,
    private readonly translator: Translator,
    private readonly glossary: GlossaryRepository,
  ) {}

  async document(context: ComputedContext, source: ComputedSource): Promise<JsonDocument> {
    const translation = await this.translationOf(context, source);
    const { space: spaceId, document: documentId } = source.props;
    if (typeof spaceId !== 'string' || typeof documentId !== 'string' || !spaceId || !documentId || documentId.length > 200)
      throw new InvalidInputError('source.props must be {space, document}: the id of a space and of a document in it');
    if (spaceId !== translation.sourceSpaceId)
      throw new InvalidInputError(`source.props.space must be the translation's source space ("${translation.sourceSpaceId}")`);
    const { space } = await this.spaces.getLive(context.actor, spaceId);
    const body = await this.content.documentById(space, documentId);
    const pair = { source: translation.sourceLanguage, target: translation.language };
    const prepared = prepareDocument(body);
    const chars = prepared.fragments.reduce((n, f) => n + f.length, 0);
    if (chars > COMPUTED_TRANSLATION_MAX_CHARS)
      throw new DomainError(
        'too-large',
        `The document has ${chars} characters of text to translate; at most ${COMPUTED_TRANSLATION_MAX_CHARS} are translated on request (run the translation instead)`,
      );
    if (this.calls.hit(`u:${context.actor.userId}`, this.clock.now().getTime()) > COMPUTED_TRANSLATIONS_PER_MINUTE)
      throw new TooManyRequestsError(`At most ${COMPUTED_TRANSLATIONS_PER_MINUTE} documents a minute are translated on request per caller`);
    const sent = protectTerms(prepared.fragments, termsFor(await this.glossary.all(translation.organizationId), pair));
    const received: string[] = [];
    try {
      for (let i = 0; i < sent.fragments.length; i += FRAGMENTS_PER_CALL)
        received.push(
          ...(await this.translator.translate(
            sent.fragments.slice(i, i + FRAGMENTS_PER_CALL),
            pair,
            documentText(translation.instructions),
          )),
        );
    } catch (e) {
      if (e instanceof PairUnavailableError) throw new InvalidInputError(e.message);
      // What the translator said (its address, its error text) is logged, never answered.
      this.logger.warn(`translation ${translation.id}: the translator failed: ${e instanceof Error ? e.message : String(e)}`);
      throw new UpstreamError('The translator failed; try again later');
    }
    try {
      return prepared.rebuild(sent.restore(received));
    } catch (e) {
      this.logger.warn(`translation ${translation.id}: ${e instanceof Error ? e.message : String(e)}`);
      throw new UpstreamError("The translator's answer lost markup or a glossary term; try again later");
    }
  }

  async revision(context: ComputedContext, source: ComputedSource): Promise<ComputedRevision> {
    const translation = await this.translationOf(context, source);
    if (Object.keys(source.props).length > 0) throw new InvalidInputError('source.props must be {} for a computed translation revision');
    if (!translation.targetSpaceId || !translation.resultRevision)
      throw new ConflictError(
        `The translation "${translation.id}" has not completed a run yet: run it first (POST …/translations/{id}/run)`,
      );
    const { space } = await this.spaces.getLive(context.actor, translation.targetSpaceId);
    const revision = await this.content.revision(space.id, translation.resultRevision);
    const hashes: string[] = [];
    walk(revision.tree, ({ node }) => void (node.document && hashes.push(node.document)));
    const bodies = await this.content.documents(space.organizationId, [...new Set(hashes)]);
    const documents = new Map<string, JsonDocument>();
    walk(revision.tree, ({ node }) => {
      const body = node.document ? bodies.get(node.document) : undefined;
      if (body) documents.set(node.id, body);
    });
    return { spaceId: space.id, tree: revision.tree, documents, files: revision.files, reusableContents: revision.reusableContents ?? [] };
  }

  private async translationOf(context: ComputedContext, source: ComputedSource): Promise<Translation> {
    const organizationId = context.space.organizationId;
    await this.access.require(organizationId, context.actor, 'read', 'Translation');
    const ref = (source.dependencies.translation as { ref?: { kind?: unknown; translation?: unknown } } | undefined)?.ref;
    if (ref?.kind !== 'translation' || typeof ref.translation !== 'string' || !ref.translation || ref.translation.length > 100)
      throw new InvalidInputError('source.dependencies.translation.ref must be {kind: "translation", translation: <its id>}');
    const translation = await this.translations.find(organizationId, ref.translation);
    if (!translation) throw new NotFoundError('Translation', ref.translation);
    return translation;
  }
}
