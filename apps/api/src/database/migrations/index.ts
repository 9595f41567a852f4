import { InitialSchema1764115200000 } from './1764115200000-initial-schema';
import { TeamsInvitesSaml1764201600000 } from './1764201600000-teams-invites-saml';
import { ContentAndChangeRequests1764288000000 } from './1764288000000-content-and-change-requests';
import { Search1764374400000 } from './1764374400000-search';
import { SearchStateConfig1764460800000 } from './1764460800000-search-state-config';
import { RevisionTreeJson1764547200000 } from './1764547200000-revision-tree-json';
import { SsoIdentities1764633600000 } from './1764633600000-sso-identities';
import { Comments1764720000000 } from './1764720000000-comments';
import { Reviews1764806400000 } from './1764806400000-reviews';
import { OrganizationChangeRequests1764892800000 } from './1764892800000-organization-change-requests';
import { CommentThreads1764979200000 } from './1764979200000-comment-threads';
import { ChangeRequestListVersions1765065600000 } from './1765065600000-change-request-list-versions';
import { Sites1765152000000 } from './1765152000000-sites';
import { OpenApiSpecs1765238400000 } from './1765238400000-openapi-specs';
import { Conversations1765324800000 } from './1765324800000-conversations';
import { ChangeRequestClusters1765411200000 } from './1765411200000-change-request-clusters';
import { Translations1765497600000 } from './1765497600000-translations';
import { ContentPermissions1765584000000 } from './1765584000000-content-permissions';
import { RevisionHistory1765670400000 } from './1765670400000-revision-history';
import { AuditEvents1765756800000 } from './1765756800000-audit-events';
import { Webhooks1765843200000 } from './1765843200000-webhooks';
import { SiteRedirects1765929600000 } from './1765929600000-site-redirects';
import { SiteSpaceCustomizations1766016000000 } from './1766016000000-site-space-customizations';
import { Guests1766102400000 } from './1766102400000-guests';
import { RepositorySources1766188800000 } from './1766188800000-repository-sources';
import { GitSync1766275200000 } from './1766275200000-git-sync';
import { SharedRateLimit1766361600000 } from './1766361600000-shared-rate-limit';
import { Collector1766448000000 } from './1766448000000-collector';
import { ConversationEmbeddings1766534400000 } from './1766534400000-conversation-embeddings';
import { ConversationCounted1766620800000 } from './1766620800000-conversation-counted';
import { ConversationRegrowth1766707200000 } from './1766707200000-conversation-regrowth';
import { ConversationClusteredAt1766793600000 } from './1766793600000-conversation-clustered-at';
import { ConversationClusteredSeq1766880000000 } from './1766880000000-conversation-clustered-seq';
import { SiteStateNotify1766966400000 } from './1766966400000-site-state-notify';
import { SearchWords1767052800000 } from './1767052800000-search-words';
import { PageFeedback1767139200000 } from './1767139200000-page-feedback';
import { Sessions1767225600000 } from './1767225600000-sessions';
import { SsoSessions1767312000000 } from './1767312000000-sso-sessions';
import { StorageFiles1767398400000 } from './1767398400000-storage-files';
import { SiteInsights1767484800000 } from './1767484800000-site-insights';
import { TranslationGlossary1767571200000 } from './1767571200000-translation-glossary';
import { InvitationEmails1767657600000 } from './1767657600000-invitation-emails';
import { CustomFonts1767744000000 } from './1767744000000-custom-fonts';

/** One timeline for the whole app, in order. Add new migrations at the end. */
export const MIGRATIONS = [
  InitialSchema1764115200000,
  TeamsInvitesSaml1764201600000,
  ContentAndChangeRequests1764288000000,
  Search1764374400000,
  SearchStateConfig1764460800000,
  RevisionTreeJson1764547200000,
  SsoIdentities1764633600000,
  Comments1764720000000,
  Reviews1764806400000,
  OrganizationChangeRequests1764892800000,
  CommentThreads1764979200000,
  ChangeRequestListVersions1765065600000,
  Sites1765152000000,
  OpenApiSpecs1765238400000,
  Conversations1765324800000,
  ChangeRequestClusters1765411200000,
  Translations1765497600000,
  ContentPermissions1765584000000,
  RevisionHistory1765670400000,
  AuditEvents1765756800000,
  Webhooks1765843200000,
  SiteRedirects1765929600000,
  SiteSpaceCustomizations1766016000000,
  Guests1766102400000,
  RepositorySources1766188800000,
  GitSync1766275200000,
  SharedRateLimit1766361600000,
  Collector1766448000000,
  ConversationEmbeddings1766534400000,
  ConversationCounted1766620800000,
  ConversationRegrowth1766707200000,
  ConversationClusteredAt1766793600000,
  ConversationClusteredSeq1766880000000,
  SiteStateNotify1766966400000,
  SearchWords1767052800000,
  PageFeedback1767139200000,
  Sessions1767225600000,
  SsoSessions1767312000000,
  StorageFiles1767398400000,
  SiteInsights1767484800000,
  TranslationGlossary1767571200000,
  InvitationEmails1767657600000,
  CustomFonts1767744000000,
];
