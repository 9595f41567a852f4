// Value sets of the official API that a context's domain checks and the shared wire objects (@app/wire)
// describe in the generated OpenAPI document: one list each, in the kernel so both can use it.

/** A space's `visibility`. */
export const SPACE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
/** A space's `editMode`. */
export const EDIT_MODES = ['live', 'locked'] as const;
/** A space's `language` (and a translation's target). */
export const LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;

export type SpaceVisibility = (typeof SPACE_VISIBILITIES)[number];
export type EditMode = (typeof EDIT_MODES)[number];
export type Language = (typeof LANGUAGES)[number];

/** An organization's `type`, `useCase`, `communityType` and `plan`. */
export const ORGANIZATION_TYPES = ['business', 'community'] as const;
export const ORGANIZATION_USE_CASES = [
  'internalDocs',
  'docsSite',
  'audienceControlledSite',
  'productDocs',
  'teamKnowledgeBase',
  'designSystem',
  'openSourceDocs',
  'notes',
  'other',
] as const;
export const ORGANIZATION_COMMUNITY_TYPES = ['nonProfit', 'openSource', 'education'] as const;
export const BILLING_PRODUCTS = [
  'free_2024',
  'plus_2024',
  'pro_2024',
  'enterprise_2024',
  'community_2024',
  'free',
  'plus',
  'pro',
  'internal',
] as const;

export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];
export type OrganizationUseCase = (typeof ORGANIZATION_USE_CASES)[number];
export type OrganizationCommunityType = (typeof ORGANIZATION_COMMUNITY_TYPES)[number];
export type BillingProduct = (typeof BILLING_PRODUCTS)[number];
