// The public surface of the translations context. Other contexts import only this file.
export { TranslationsModule } from './translations.module';
export {
  TranslationsService,
  TranslationEvents,
  TRANSLATION_EVENT_TYPES,
  SWEEP_QUEUE as TRANSLATIONS_SWEEP_QUEUE,
} from './application/translations.service';
export { TranslationSettings } from './application/translation-settings';
export { Translator, PairUnavailableError } from './domain/translator';
export type { LanguagePair } from './domain/translator';
export { ComputedTranslation } from './application/computed-translation';
export { TranslationVersions } from './application/translation-versions';
