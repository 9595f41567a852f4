export default async function globalTeardown(): Promise<void> {
  const pg = (globalThis as { __QUIRE_PG__?: { stop(): Promise<void> } }).__QUIRE_PG__;
  if (pg) await pg.stop();
}
