// The ceilings: bare Node http + pg.
// - /spaces/{id}: the same single-row query as GET /v1/spaces/{id}, the row as JSON;
// - /orgs/{id}/spaces: the same page as GET /v1/orgs/{id}/spaces?limit=100 (its 101 rows in creation order
//   and the total count, one statement), the rows as JSON: what a list of 100 costs with no framework,
//   authorization or response shape at all.
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const PAGE = `SELECT q.*, (SELECT count(*)::int FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL) AS count
  FROM spaces q WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at, id LIMIT 101`;
const server = http.createServer(async (req, res) => {
  const [, kind, id] = req.url.split('/');
  let body;
  if (kind === 'orgs') {
    const { rows } = await pool.query(PAGE, [id]);
    body = { items: rows.slice(0, 100), count: rows[0]?.count ?? 0, next: rows.length > 100 ? { page: rows[99].id } : undefined };
  } else {
    const { rows } = await pool.query('SELECT * FROM spaces WHERE id = $1', [id]);
    body = rows[0] ?? null;
  }
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
