import 'reflect-metadata';
import { loadConfig } from './config';
import { answerUnknownPaths, createApp, envelopeClientErrors } from './create-app';
import { EmbeddedPostgresHandle, startEmbeddedPostgres } from './database/embedded-postgres';
import { migrate } from './database/migrate';
import { createRootLogger } from './http/logger';
import type { Tracing } from './tracing';
import { keyFilePath } from './secrets';

/** Starts the API server (see main.ts, which starts tracing first). */
export async function runServer(tracing: Tracing | null): Promise<void> {
  const config = loadConfig();
  const logger = createRootLogger(config.logLevel);
  let embedded: EmbeddedPostgresHandle | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    logger.info({ dataDir: config.dataDir }, 'DATABASE_URL not set: starting the embedded PostgreSQL');
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort });
    databaseUrl = embedded.url;
    logger.info({ port: embedded.port }, 'embedded PostgreSQL is up (loopback only)');
  }
  // One container at a time (advisory lock); the others wait, then find nothing to apply.
  if (config.databaseUrl && !config.secretKey)
    logger.warn(
      { keyFile: keyFilePath(config.dataDir) },
      'QUIRE_SECRET_KEY is not set: secrets at rest are sealed with the key file in QUIRE_DATA_DIR; several API processes on one database must share it (or set the same QUIRE_SECRET_KEY on each)',
    );
  let app: Awaited<ReturnType<typeof createApp>> | null = null;
  try {
    const applied = await migrate(databaseUrl);
    if (applied.length) logger.info({ applied }, 'database migrated');
    app = await createApp(config, databaseUrl, logger);
    await app.init(); // the first start's bootstrap runs here (and refuses a weak chosen token)
    answerUnknownPaths(app);
    envelopeClientErrors(app.getHttpServer());
    await app.listen(config.port, config.host);
  } catch (e) {
    // A start that fails leaves nothing running: the app's connections, then the embedded PostgreSQL.
    await app?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw e;
  }
  // The bound port (PORT=0 asks the system for a free one: process tests and side-cars read it from this line).
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, docs: `/docs` }, `Quire API listening on http://localhost:${port} (Swagger UI at /docs)`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    try {
      await app.close(); // stops accepting, waits for in-flight requests, runs shutdown hooks
      await embedded?.stop();
      await tracing?.shutdown().catch(() => undefined); // exports the last spans
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
