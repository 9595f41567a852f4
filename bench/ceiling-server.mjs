// The ceiling: bare Node http + pg doing the same single-row query as GET /v1/spaces/{id}.
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const server = http.createServer(async (req, res) => {
  const id = req.url.split('/').pop();
  const { rows } = await pool.query('SELECT * FROM spaces WHERE id = $1', [id]);
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(rows[0] ?? null));
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
