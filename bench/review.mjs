// Review and comments reads (part of npm run bench), beside the bare node http + pg ceiling in the same run:
// - GET …/change-requests/{id}/comments?limit=100 on a change request with 1,000 comments (a third with
//   replies, half with reactions), c=50; target ≥ 0.15 of the ceiling.
// - GET /orgs/{id}/change-requests?limit=100 over 1,000 spaces with 20,000 change requests, c=10;
//   target p95 < 50 ms (autocannon reports p97.5, which bounds p95 from above).
// Spaces are created through the API; change requests, comments, replies and reactions are seeded with SQL
// (the API would take minutes to write 20,000 change requests; reads are what is measured).
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { apiStarter, cannon, resultRow } from './api.mjs';

const { startEmbeddedPostgres, freePort } = await import('../dist/apps/api/src/database/embedded-postgres.js');
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const TOKEN = 'bench-token-0123456789abcdefghijklmnopqr';
const SPACES = 1000;
const CHANGE_REQUESTS_PER_SPACE = 20;
const COMMENTS = 1000;

const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-review-'));
const db = await startEmbeddedPostgres({ dataDir, persistent: false });
const children = [];
const startApi = apiStarter({ databaseUrl: db.url, dataDir, token: TOKEN, children });

const client = new pg.Client({ connectionString: db.url });
try {
  const { url: base } = await startApi();
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const me = (await call('GET', '/v1/user')).id;
  let made = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < SPACES) {
        made += 1;
        await call('POST', `/v1/orgs/${org}/spaces`, { title: `Space ${made}` });
      }
    }),
  );
  const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Reviewed' });
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Discussed' });

  await client.connect();
  await client.query(
    `INSERT INTO change_requests (id, organization_id, space_id, number, status, subject, created_by, created_at, updated_at,
       revision, revision_initial, contributors)
     SELECT substr(md5(s.id || n), 1, 20), s.organization_id, s.id, n,
       (ARRAY['open','open','open','open','open','open','open','draft','draft','archived'])[1 + (n % 10)],
       'Change ' || n, $2, now() - (n || ' minutes')::interval, now() - ((n * 7 % 1000) || ' seconds')::interval,
       s.revision_id, s.revision_id, ARRAY[$2]
     FROM spaces s CROSS JOIN generate_series(1, $3) AS n WHERE s.organization_id = $1 AND s.id <> $4`,
    [org, me, CHANGE_REQUESTS_PER_SPACE, space.id],
  );
  const doc = {
    object: 'document',
    data: {},
    nodes: [
      {
        object: 'block',
        type: 'paragraph',
        key: 'p',
        isVoid: false,
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'A comment with some words in it.', marks: [] }] }],
      },
    ],
  };
  await client.query(
    `INSERT INTO comments (id, organization_id, space_id, change_request_id, parent_id, body_document, body_markdown, posted_by, posted_at,
       target_revision, status)
     SELECT 'c' || n, $1, $2, $3, NULL, $4, 'A comment with some words in it.', $5, now() - ((2000 - n) || ' seconds')::interval, $6,
       CASE WHEN n % 4 = 0 THEN 'resolved' ELSE 'open' END
     FROM generate_series(1, $7) AS n`,
    [org, space.id, cr.id, doc, me, cr.revision, COMMENTS],
  );
  await client.query(
    `INSERT INTO comments (id, organization_id, space_id, change_request_id, parent_id, body_document, body_markdown, posted_by, posted_at,
       target_revision, status)
     SELECT 'r' || n || '-' || k, $1, $2, $3, 'c' || n, $4, 'A reply.', CASE WHEN k = 1 THEN $5 ELSE 'someone-' || k END, now(), $6, 'open'
     FROM generate_series(1, $7, 3) AS n CROSS JOIN generate_series(1, 2) AS k`,
    [org, space.id, cr.id, doc, me, cr.revision, COMMENTS],
  );
  await client.query(
    `INSERT INTO comment_reactions (comment_id, user_id, emoji, reacted_at)
     SELECT 'c' || n, u, e, now() FROM generate_series(1, $1, 2) AS n
       CROSS JOIN (VALUES ($2), ('someone-2'), ('someone-3')) AS users(u) CROSS JOIN (VALUES ('👍'), ('🎉')) AS emoji(e)`,
    [COMMENTS, me],
  );
  await client.query('ANALYZE');
  console.log(`seeded ${SPACES + 1} spaces, ${SPACES * CHANGE_REQUESTS_PER_SPACE + 1} change requests, ${COMMENTS} comments on one`);

  const ceilingPort = await freePort();
  const ceiling = fork('bench/ceiling-server.mjs', [], { env: { ...process.env, DATABASE_URL: db.url, PORT: String(ceilingPort) } });
  children.push(ceiling);
  await new Promise((r) => ceiling.once('message', r));
  const bare = await cannon(`http://127.0.0.1:${ceilingPort}`, `/spaces/${space.id}`, {}, 50);
  ceiling.kill('SIGTERM');

  const comments = await cannon(base, `/v1/spaces/${space.id}/change-requests/${cr.id}/comments?limit=100`, auth, 50);
  const orgList = await cannon(base, `/v1/orgs/${org}/change-requests?limit=100`, auth, 10);
  const row = resultRow(bare);
  console.table([
    row('ceiling: node http + pg, same row (c=50)', bare, ''),
    row('GET …/change-requests/{id}/comments?limit=100 (1,000 comments, c=50)', comments, '≥ 0.15'),
    row('GET /orgs/{id}/change-requests?limit=100 (20,000 in 1,000 spaces, c=10)', orgList, 'p95 < 50 ms'),
  ]);
  console.log(`${DURATION} s each after a 3 s warm-up; latency in ms; ratio = rps / ceiling rps in this run.`);
} finally {
  await client.end().catch(() => undefined);
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
