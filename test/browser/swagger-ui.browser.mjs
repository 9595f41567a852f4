// Browser test: Debian's headless Chromium, driven by playwright-core, opens the served Swagger UI
// and finds the operations rendered. Run by .ci/run after installing chromium (npm run test:browser).
import { check, launchChromium, results, startServer } from './harness.mjs';

let server;
let browser;
try {
  server = await startServer();
  const port = new URL(server.origin).port;
  browser = await launchChromium();
  const page = await browser.newPage();
  console.log('Swagger UI in headless Chromium');

  await check('GET /docs renders the Quire API title', async () => {
    const res = await page.goto(`http://127.0.0.1:${port}/docs`, { waitUntil: 'networkidle' });
    if (!res || res.status() !== 200) throw new Error(`status ${res?.status()}`);
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 15_000 });
    const title = await page.textContent('.swagger-ui .info .title');
    if (!title?.includes('Quire API')) throw new Error(`title was ${title}`);
  });

  // Swagger UI (5.3x) virtualizes long operation lists: only what is near the viewport is in the DOM.
  // The checks scroll through the page, as a reader does.
  const scrollThrough = async (collect) => {
    for (let y = 0; ; y += 500) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(40);
      if (await collect()) return true;
      if (y > (await page.evaluate(() => document.body.scrollHeight))) return false;
    }
  };

  await check('the operations are rendered, grouped by tag', async () => {
    await page.waitForSelector('.opblock', { timeout: 15_000 });
    const paths = new Set();
    const tags = new Set();
    await scrollThrough(async () => {
      for (const p of await page.$$eval('.opblock .opblock-summary-path', (els) =>
        els.map((e) => e.textContent?.replace(/\u200b/g, '').trim()),
      ))
        paths.add(p);
      for (const t of await page.$$eval('.opblock-tag', (els) => els.map((e) => e.getAttribute('data-tag')))) tags.add(t);
      return false;
    });
    for (const expected of [
      '/v1/orgs',
      '/v1/orgs/{organizationId}/spaces',
      '/v1/spaces/{spaceId}',
      '/v1/collections/{collectionId}/move',
      '/v1/user',
      '/v1/spaces/{spaceId}/comments',
      '/v1/orgs/{organizationId}/change-requests',
    ]) {
      if (!paths.has(expected)) throw new Error(`${expected} missing; saw ${paths.size} paths`);
    }
    for (const tag of ['organizations', 'spaces', 'collections', 'comments', 'change-requests'])
      if (!tags.has(tag)) throw new Error(`tag ${tag} missing`);
  });

  await check('an operation expands to show its parameters and Bearer lock', async () => {
    const op = '#operations-spaces-getSpaceById';
    if (!(await scrollThrough(async () => (await page.$(`${op} .opblock-summary`)) !== null))) throw new Error('getSpaceById not rendered');
    await page.click(`${op} .opblock-summary`);
    await page.waitForSelector(`${op} .parameters`, { timeout: 10_000 });
    const text = await page.textContent(op);
    if (!text?.includes('spaceId')) throw new Error('spaceId parameter not shown');
    if (!(await page.$('.swagger-ui .auth-wrapper .authorize'))) throw new Error('Authorize button missing');
    if (process.env.QUIRE_SCREENSHOT) await page.screenshot({ path: process.env.QUIRE_SCREENSHOT, fullPage: false });
  });
} catch (e) {
  results.failed += 1;
  console.log(`  ✕ setup\n    ${e instanceof Error ? e.message : e}`);
} finally {
  await browser?.close();
  await server?.stop();
}

console.log(`browser: ${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed ? 1 : 0);
