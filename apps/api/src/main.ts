import { ConfigError } from './config';
import { startTracing } from './tracing';

/**
 * The container's entry point. Tracing (when configured) starts before the app's modules load, so
 * that their `pg` and `http` are the instrumented ones; then the server starts.
 */
async function main(): Promise<void> {
  const tracing = await startTracing();
  const { runServer } = await import('./server.js');
  await runServer(tracing);
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError) process.stderr.write(`Configuration error: ${e.message}\n`);
  else process.stderr.write(`Quire failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
