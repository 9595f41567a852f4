import { Module } from '@nestjs/common';
import { SpacesAndContentModule } from '@app/spaces-and-content';
import { TranslationVersions } from './application/translation-versions';
import { ComputedTranslation } from './application/computed-translation';
import { TranslationEvents, TranslationsService } from './application/translations.service';
import { TranslationSettings } from './application/translation-settings';
import { TranslationRepository } from './domain/translation';
import { FirstAvailableTranslator, Translator } from './domain/translator';
import { TranslationsController } from './http/translations.controller';
import { GlossaryController } from './http/glossary.controller';
import { GlossaryService } from './application/glossary.service';
import { GlossaryRepository } from './domain/glossary';
import { SqlGlossaryRepository } from './infrastructure/glossary.repository';
import { ApertiumTranslator } from './infrastructure/apertium-translator';
import { ChatCompletionsTranslator, LibreTranslateTranslator } from './infrastructure/http-translators';
import { SqlTranslationRepository } from './infrastructure/translations.repository';
import { AccessModule } from '@app/access';

/** The translators the settings name, first preferred: LibreTranslate, a chat-completions model, then Apertium (the default). */
function translatorFrom(settings?: TranslationSettings): Translator {
  const s = settings ?? { apertium: true, libreTranslate: null, chatCompletions: null };
  const list: Translator[] = [];
  if (s.libreTranslate) list.push(new LibreTranslateTranslator(s.libreTranslate.url, s.libreTranslate.apiKey));
  if (s.chatCompletions) list.push(new ChatCompletionsTranslator(s.chatCompletions.url, s.chatCompletions.model, s.chatCompletions.apiKey));
  if (s.apertium) list.push(new ApertiumTranslator());
  return new FirstAvailableTranslator(list);
}

/**
 * Translations of a space into another language, and their runs (background jobs). Reads spaces and
 * their content through the content context's application API (SpacesService, ContentService,
 * ContentAccess); the translation's target space is created by SpacesService, the one writer of space state.
 */
@Module({
  imports: [AccessModule, SpacesAndContentModule],
  controllers: [TranslationsController, GlossaryController],
  providers: [
    TranslationsService,
    TranslationEvents,
    ComputedTranslation,
    TranslationVersions,
    GlossaryService,
    { provide: GlossaryRepository, useClass: SqlGlossaryRepository },
    { provide: TranslationRepository, useClass: SqlTranslationRepository },
    { provide: Translator, useFactory: translatorFrom, inject: [{ token: TranslationSettings, optional: true }] },
  ],
  exports: [TranslationsService, ComputedTranslation, TranslationVersions],
})
export class TranslationsModule {}
