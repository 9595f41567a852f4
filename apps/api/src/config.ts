import { isAbsolute, resolve } from 'node:path';
import { parseSecretKey, SecretKeyError } from './secrets';
import { parseGitHosts, type GitHostKind } from '@app/repository-sync';

/** Quire's configuration, read from the environment once and validated at start (README lists it). */
export interface QuireConfig {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  embeddedPgPort: number | null;
  publicUrl: string | null;
  appUrl: string | null;
  bootstrap: boolean;
  bootstrapToken: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  jobs: boolean;
  tokenCacheTtlMs: number;
  roleCacheTtlMs: number;
  /** QUIRE_SITE_STATE_TTL_MS: how long a site's state is kept in process while the notification channel is down. */
  siteStateTtlMs: number;
  bodyLimit: string;
  contentBodyLimit: string;
  rateLimitPerMinute: number;
  authFailuresPerMinute: number;
  readCacheMb: number;
  fileSigningSecret: string | null;
  /** QUIRE_SECRET_KEY: the key that seals secrets at rest; null: the data dir's key file. */
  secretKey: Buffer | null;
  /** QUIRE_SECRET_KEY_PREVIOUS: older keys, kept to open what is still sealed under them during a rotation. */
  previousSecretKeys: Buffer[];
  fileUrlAllowlist: string[];
  fileUrlAllowPrivate: boolean;
  /** Hosts an OpenAPI source URL may resolve to a private, loopback or link-local address (tests, internal mirrors). */
  openApiPrivateHosts: string[];
  openApiFetchTimeoutMs: number;
  /** Hosts an embed URL may fetch although they resolve to a private or loopback address (QUIRE_EMBED_URL_ALLOWLIST). */
  embedPrivateHosts: string[];
  /** URLs one caller may have fetched for embeds per minute (QUIRE_EMBED_FETCHES_PER_MINUTE; 0: no limit). */
  embedFetchesPerMinute: number;
  /** Search ranking statements run at once per process (0: no limit). */
  searchConcurrency: number;
  /** Search result pages cached per process (0: no cache). */
  searchCacheEntries: number;
  /** Translators of translation runs: Apertium on this machine, and optional HTTP services (preferred when set). */
  translation: {
    apertium: boolean;
    libreTranslate: { url: string; apiKey?: string } | null;
    chatCompletions: { url: string; model: string; apiKey?: string } | null;
  };
  /** An OpenAI-compatible chat completions API for conversation issue titles and summaries (optional). */
  conversationsLlm: { url: string; model: string; apiKey?: string } | null;
  /** The model that answers visitors' questions on published sites (`~ask`, the site MCP's `ask`). */
  answersLlm: { url: string; model: string; apiKey?: string } | null;
  /** The SMTP server of email invitations (QUIRE_SMTP_URL; null: none) and their sender (QUIRE_SMTP_FROM). */
  smtp: { url: string | null; from: string };
  /** Days audit events are kept (null: forever, the default). */
  auditRetentionDays: number | null;
  /** Site insights: days events are kept, events per minute from one address, the longest an event waits in memory. */
  insights: { retentionDays: number; eventsPerMinute: number; flushMs: number; topicsMemoryMb: number };
  /** The collector: hours a body or file's bytes stay once nothing references them, and how many go per run. */
  gcGraceHours: number;
  gcBatch: number;
  /** Hosts a webhook may reach over http, or at a private or loopback address. */
  webhookAllowlist: string[];
  /** Hosts a Git Sync remote may be on over http, or at a private or loopback address (QUIRE_GIT_URL_ALLOWLIST). */
  gitUrlAllowlist: string[];
  /** How often connected spaces' branches are polled for new commits (QUIRE_GIT_POLL_SECONDS; 0: never). */
  gitPollSeconds: number;
  /** The kind of each Git host not known by its name, for "Edit on …" links (QUIRE_GIT_HOSTS: `host=kind,…`). */
  gitHosts: Map<string, GitHostKind>;
  /** File bytes in S3-compatible object storage (null: on local disk under the data dir). */
  s3: { bucket: string; region: string; endpoint?: string; forcePathStyle?: boolean; prefix?: string } | null;
  /** Download links redirect to the store's presigned URL (S3 only) instead of passing the bytes through. */
  presignedDownloads: boolean;
  /** `GET /metrics` (Prometheus), and the bearer token a scraper must send (null: none). */
  metrics: boolean;
  metricsToken: string | null;
  /** QUIRE_BUILD_DATE: when this build was made (`GET /v1/` says it; the image sets it when built with it), or null. */
  buildDate: Date | null;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function int(env: NodeJS.ProcessEnv, name: string, fallback: number | null, min: number, max: number): number | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return n;
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
  return raw.replace(/\/+$/, '');
}

/** QUIRE_SMTP_FROM: an address, or `Name <address>` (default `Quire <quire@localhost>`); no line breaks. */
function smtpFrom(env: NodeJS.ProcessEnv): string {
  const from = env.QUIRE_SMTP_FROM || 'Quire <quire@localhost>';
  if (!/^[^\r\n<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(from))
    throw new ConfigError(`QUIRE_SMTP_FROM must be an address or "Name <address>" (got "${from}")`);
  return from;
}

function fileStorage(env: NodeJS.ProcessEnv): Pick<QuireConfig, 's3' | 'presignedDownloads'> {
  const kind = (env.QUIRE_FILE_STORAGE || 'local').toLowerCase();
  if (kind !== 'local' && kind !== 's3') throw new ConfigError('QUIRE_FILE_STORAGE must be "local" or "s3"');
  const downloads = (env.QUIRE_FILE_DOWNLOADS || 'proxy').toLowerCase();
  if (downloads !== 'proxy' && downloads !== 'presigned') throw new ConfigError('QUIRE_FILE_DOWNLOADS must be "proxy" or "presigned"');
  if (kind === 'local') {
    if (downloads === 'presigned') throw new ConfigError('QUIRE_FILE_DOWNLOADS=presigned needs QUIRE_FILE_STORAGE=s3');
    return { s3: null, presignedDownloads: false };
  }
  const bucket = env.QUIRE_S3_BUCKET;
  if (!bucket) throw new ConfigError('QUIRE_FILE_STORAGE=s3 needs QUIRE_S3_BUCKET');
  const endpoint = url(env, 'QUIRE_S3_ENDPOINT', ['http:', 'https:']) ?? undefined;
  const pathStyle = env.QUIRE_S3_FORCE_PATH_STYLE?.toLowerCase();
  if (pathStyle !== undefined && pathStyle !== 'true' && pathStyle !== 'false')
    throw new ConfigError('QUIRE_S3_FORCE_PATH_STYLE must be "true" or "false"');
  return {
    s3: {
      bucket,
      region: env.QUIRE_S3_REGION || env.AWS_REGION || 'us-east-1',
      endpoint,
      ...(pathStyle !== undefined ? { forcePathStyle: pathStyle === 'true' } : {}),
      prefix: env.QUIRE_S3_PREFIX || undefined,
    },
    presignedDownloads: downloads === 'presigned',
  };
}

function metrics(env: NodeJS.ProcessEnv): Pick<QuireConfig, 'metrics' | 'metricsToken'> {
  const on = (env.QUIRE_METRICS || 'off').toLowerCase();
  if (on !== 'on' && on !== 'off') throw new ConfigError('QUIRE_METRICS must be "on" or "off"');
  const token = env.QUIRE_METRICS_TOKEN || null;
  if (token !== null && (token.length < 16 || /\s/.test(token)))
    throw new ConfigError('QUIRE_METRICS_TOKEN must be at least 16 characters without white space');
  return { metrics: on === 'on', metricsToken: token };
}

function signingSecret(env: NodeJS.ProcessEnv): string | null {
  const s = env.QUIRE_FILE_SIGNING_SECRET;
  if (!s) return null;
  if (s.length < 32) throw new ConfigError('QUIRE_FILE_SIGNING_SECRET must be at least 32 characters');
  return s;
}

function secretKeys(env: NodeJS.ProcessEnv): Pick<QuireConfig, 'secretKey' | 'previousSecretKeys'> {
  try {
    const secretKey = env.QUIRE_SECRET_KEY ? parseSecretKey(env.QUIRE_SECRET_KEY, 'QUIRE_SECRET_KEY') : null;
    const previous = (env.QUIRE_SECRET_KEY_PREVIOUS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k) => parseSecretKey(k, 'QUIRE_SECRET_KEY_PREVIOUS'));
    if (previous.length && !secretKey) throw new ConfigError('QUIRE_SECRET_KEY_PREVIOUS needs QUIRE_SECRET_KEY (the new key)');
    return { secretKey, previousSecretKeys: previous };
  } catch (e) {
    if (e instanceof SecretKeyError) throw new ConfigError(e.message);
    throw e;
  }
}

/** A chosen bootstrap token is as strong as a generated one could reasonably be asked to be (≥ 128 bits). */
export const BOOTSTRAP_TOKEN_MIN_LENGTH = 32;
const BOOTSTRAP_TOKEN_MIN_DISTINCT = 10;
/** The longest token Quire stores (IdentityService.issueToken). */
const BOOTSTRAP_TOKEN_MAX_LENGTH = 200;
const BOOTSTRAP_ADVICE = 'generate one with `openssl rand -base64 32` or leave it unset to have Quire generate and print one';

/**
 * QUIRE_BOOTSTRAP_TOKEN becomes an admin's API token: what can never be a token (white space, control or
 * non-ASCII characters, over 200 characters) stops every start.
 */
export function checkBootstrapToken(token: string): void {
  if (!/^[\x21-\x7e]+$/.test(token))
    throw new ConfigError(`QUIRE_BOOTSTRAP_TOKEN must be printable ASCII without white space; ${BOOTSTRAP_ADVICE}`);
  if (token.length > BOOTSTRAP_TOKEN_MAX_LENGTH)
    throw new ConfigError(`QUIRE_BOOTSTRAP_TOKEN must be at most ${BOOTSTRAP_TOKEN_MAX_LENGTH} characters; ${BOOTSTRAP_ADVICE}`);
}

/**
 * Why a chosen token is weaker than the generated tokens' kind (`qr_` + 40 base62 characters), or null:
 * fewer than 32 characters, or so little variety that it is guessable (`aaaa…`, `0123…` repeated: fewer
 * than 10 distinct characters). The first start refuses to create an admin token from it; a database set
 * up before only logs a warning (the variable is not used then, and an upgrade must not stop a running
 * deployment).
 */
export function bootstrapTokenWeakness(token: string): string | null {
  if (token.length < BOOTSTRAP_TOKEN_MIN_LENGTH)
    return `QUIRE_BOOTSTRAP_TOKEN is too weak: ${token.length} characters, at least ${BOOTSTRAP_TOKEN_MIN_LENGTH} are needed; ${BOOTSTRAP_ADVICE}`;
  if (new Set(token).size < BOOTSTRAP_TOKEN_MIN_DISTINCT)
    return `QUIRE_BOOTSTRAP_TOKEN is too weak: fewer than ${BOOTSTRAP_TOKEN_MIN_DISTINCT} distinct characters; ${BOOTSTRAP_ADVICE}`;
  return null;
}

function buildDate(raw: string | undefined): Date | null {
  if (!raw) return null;
  const date = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(date.getTime()))
    throw new ConfigError(`QUIRE_BUILD_DATE must be a date in ISO format (got "${raw}")`);
  return date;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): QuireConfig {
  const logLevel = (env.LOG_LEVEL || 'info') as QuireConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const jobs = (env.QUIRE_JOBS || 'on').toLowerCase();
  if (jobs !== 'on' && jobs !== 'off') throw new ConfigError('QUIRE_JOBS must be "on" or "off"');
  const bodyLimit = env.QUIRE_BODY_LIMIT || '1mb';
  if (!/^\d+(b|kb|mb)$/i.test(bodyLimit)) throw new ConfigError('QUIRE_BODY_LIMIT must look like 512kb or 1mb');
  const contentBodyLimit = env.QUIRE_CONTENT_BODY_LIMIT || '32mb';
  if (!/^\d+(b|kb|mb)$/i.test(contentBodyLimit)) throw new ConfigError('QUIRE_CONTENT_BODY_LIMIT must look like 16mb or 32mb');
  const bootstrapToken = env.QUIRE_BOOTSTRAP_TOKEN || null;
  if (bootstrapToken !== null) checkBootstrapToken(bootstrapToken);
  const bootstrap = (env.QUIRE_BOOTSTRAP || 'on').toLowerCase();
  if (bootstrap !== 'on' && bootstrap !== 'off') throw new ConfigError('QUIRE_BOOTSTRAP must be "on" or "off"');
  const dataDir = env.QUIRE_DATA_DIR || './data';
  const apertium = (env.QUIRE_APERTIUM || 'on').toLowerCase();
  if (apertium !== 'on' && apertium !== 'off') throw new ConfigError('QUIRE_APERTIUM must be "on" or "off"');
  const libreUrl = url(env, 'QUIRE_LIBRETRANSLATE_URL', ['http:', 'https:']);
  const llmUrl = url(env, 'QUIRE_LLM_URL', ['http:', 'https:']);
  if (llmUrl && !env.QUIRE_LLM_MODEL) throw new ConfigError('QUIRE_LLM_URL needs QUIRE_LLM_MODEL');
  const llm = llmUrl ? { url: llmUrl, model: env.QUIRE_LLM_MODEL!, apiKey: env.QUIRE_LLM_API_KEY || undefined } : null;
  const llmFor = (env.QUIRE_LLM_FOR ?? 'translations,conversations,answers')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const unknownUse = llmFor.find((x) => x !== 'translations' && x !== 'conversations' && x !== 'answers');
  if (unknownUse) throw new ConfigError(`QUIRE_LLM_FOR takes "translations", "conversations" and "answers" (got "${unknownUse}")`);
  return {
    port: int(env, 'PORT', 3000, 0, 65535)!,
    host: env.HOST || '0.0.0.0',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(process.cwd(), dataDir),
    embeddedPgPort: int(env, 'QUIRE_EMBEDDED_PG_PORT', null, 1, 65535),
    publicUrl: url(env, 'PUBLIC_URL', ['http:', 'https:']),
    appUrl: url(env, 'APP_URL', ['http:', 'https:']),
    bootstrap: bootstrap === 'on',
    bootstrapToken,
    logLevel,
    jobs: jobs === 'on',
    tokenCacheTtlMs: int(env, 'QUIRE_TOKEN_CACHE_TTL_MS', 30_000, 0, 3_600_000)!,
    roleCacheTtlMs: int(env, 'QUIRE_ROLE_CACHE_TTL_MS', 5_000, 0, 600_000)!,
    siteStateTtlMs: int(env, 'QUIRE_SITE_STATE_TTL_MS', 1_000, 0, 60_000)!,
    bodyLimit,
    contentBodyLimit,
    rateLimitPerMinute: int(env, 'QUIRE_RATE_LIMIT_PER_MINUTE', 6000, 0, 10_000_000)!,
    authFailuresPerMinute: int(env, 'QUIRE_AUTH_FAILURES_PER_MINUTE', 60, 0, 10_000_000)!,
    readCacheMb: int(env, 'QUIRE_READ_CACHE_MB', 64, 0, 65_536)!,
    fileSigningSecret: signingSecret(env),
    ...secretKeys(env),
    fileUrlAllowlist: (env.QUIRE_FILE_URL_ALLOWLIST || '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    fileUrlAllowPrivate: (env.QUIRE_FILE_URL_ALLOW_PRIVATE || 'false').toLowerCase() === 'true',
    openApiPrivateHosts: (env.QUIRE_OPENAPI_URL_ALLOWLIST || '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    openApiFetchTimeoutMs: int(env, 'QUIRE_OPENAPI_FETCH_TIMEOUT_MS', 30_000, 100, 600_000)!,
    embedPrivateHosts: (env.QUIRE_EMBED_URL_ALLOWLIST || '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    embedFetchesPerMinute: int(env, 'QUIRE_EMBED_FETCHES_PER_MINUTE', 30, 0, 100_000)!,
    searchConcurrency: int(env, 'QUIRE_SEARCH_CONCURRENCY', 4, 0, 1000)!,
    searchCacheEntries: int(env, 'QUIRE_SEARCH_CACHE_ENTRIES', 1000, 0, 1_000_000)!,
    translation: {
      apertium: apertium === 'on',
      libreTranslate: libreUrl ? { url: libreUrl, apiKey: env.QUIRE_LIBRETRANSLATE_API_KEY || undefined } : null,
      chatCompletions: llmFor.includes('translations') ? llm : null,
    },
    conversationsLlm: llmFor.includes('conversations') ? llm : null,
    answersLlm: llmFor.includes('answers') ? llm : null,
    smtp: { url: url(env, 'QUIRE_SMTP_URL', ['smtp:', 'smtps:']), from: smtpFrom(env) },
    auditRetentionDays: int(env, 'QUIRE_AUDIT_RETENTION_DAYS', null, 1, 36_500),
    insights: {
      retentionDays: int(env, 'QUIRE_INSIGHTS_RETENTION_DAYS', 395, 1, 36_500)!,
      eventsPerMinute: int(env, 'QUIRE_INSIGHTS_EVENTS_PER_MINUTE', 1200, 1, 10_000_000)!,
      flushMs: int(env, 'QUIRE_INSIGHTS_FLUSH_MS', 1000, 10, 60_000)!,
      topicsMemoryMb: int(env, 'QUIRE_INSIGHTS_TOPICS_MEMORY_MB', 2048, 128, 1_048_576)!,
    },
    gcGraceHours: int(env, 'QUIRE_GC_GRACE_HOURS', 24, 1, 87_600)!,
    gcBatch: int(env, 'QUIRE_GC_BATCH', 1000, 1, 1_000_000)!,
    ...fileStorage(env),
    ...metrics(env),
    webhookAllowlist: (env.QUIRE_WEBHOOK_ALLOWLIST || '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    gitUrlAllowlist: (env.QUIRE_GIT_URL_ALLOWLIST || '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    gitPollSeconds: gitPollSeconds(env.QUIRE_GIT_POLL_SECONDS),
    buildDate: buildDate(env.QUIRE_BUILD_DATE),
    gitHosts: gitHosts(env.QUIRE_GIT_HOSTS),
  };
}

function gitHosts(raw: string | undefined): Map<string, GitHostKind> {
  try {
    return parseGitHosts(raw);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

function gitPollSeconds(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || (n !== 0 && n < 60) || n > 86_400)
    throw new ConfigError('QUIRE_GIT_POLL_SECONDS must be 0 (no polling) or a number of seconds from 60 to 86400');
  return n;
}
