// A ceiling for published pages: a bare Node http server, in its own process (as the API is), answering the
// bytes of BYTES_FILE from memory with the page's content type.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const bytes = readFileSync(process.env.BYTES_FILE);
const server = http.createServer((req, res) => {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(bytes);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
