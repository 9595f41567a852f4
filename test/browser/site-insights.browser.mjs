// Browser test (#51): a visitor reads a published site in Debian's headless Chromium — a page, searches with and
// without results, a click on a search hit, feedback with a comment, a link to another site, the search page and
// a question asked there, a page that does not exist — and the official aggregateSiteEvents counts exactly those
// events; a visitor whose browser asks not to be tracked sends nothing. axe-core on the search page with its answer; no
// console error. Then the web app's insights screen shows exactly those events (totals, chart, tables, topics, CSV),
// a topic opens a change request, dark and on a phone, axe-core clean. Screenshots: docs/screenshots/site-ask.png,
// app-insights.png and app-insights-phone-dark.png with QUIRE_SCREENSHOTS=1.
import { deepStrictEqual } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { apiClient, axeCheck, check, launchChromium, results, startServer } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let server;
let browser;
try {
  server = await startServer();
  const { origin, organization, signInToken } = server;
  const api = apiClient(server);
  const space = (await api('POST', `/orgs/${organization}/spaces`, { title: 'Handbook' })).id;
  const cr = (await api('POST', `/spaces/${space}/change-requests`, { subject: 'Pages' })).id;
  const page = (ref, title, markdown) => ({ operation: 'insert_page', ref, title, document: { markdown } });
  await api('POST', `/spaces/${space}/change-requests/${cr}/content`, {
    changes: [
      page('install', 'Install', 'Run the installer, then read the [Node.js download page](https://nodejs.org/en/download).\n'),
      page('configure', 'Configure', 'Set the port in the configuration file.\n'),
    ],
  });
  await api('POST', `/spaces/${space}/change-requests/${cr}/merge`);
  const site = (await api('POST', `/orgs/${organization}/sites`, { title: 'Handbook' })).id;
  const base = `/orgs/${organization}/sites/${site}`;
  await api('POST', `${base}/site-spaces`, { spaceId: space });
  const customization = await api('GET', `${base}/customization`);
  await api('PUT', `${base}/customization`, { ...customization, feedback: { enabled: true } });
  await api('POST', `${base}/publish`);
  const root = `${origin}/sites/${site}/`;

  browser = await launchChromium();
  const errors = [];
  const notFound = `${root}no-such-page`;
  const watch = (p) => {
    p.on('console', (m) => m.type() === 'error' && !m.text().includes('404') && errors.push(`${p.url()}: ${m.text()}`));
    p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
    // The page that does not exist answers 404 on purpose; nothing else may fail.
    p.on('response', (r) => r.status() >= 400 && r.url() !== notFound && errors.push(`${p.url()}: ${r.status()} for ${r.url()}`));
    return p;
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const sent = [];
  await context.route(
    (url) => !url.href.startsWith(origin),
    (r) => r.abort(),
  );
  const tab = watch(await context.newPage());
  tab.on('request', (r) => r.url().endsWith('/insights/events') && r.method() === 'POST' && sent.push(r.postDataJSON()));
  // A link to another site is followed nowhere (tests stay on loopback): the click is seen, the navigation not made.
  await tab.addInitScript(() =>
    window.addEventListener('click', (e) => {
      const a = e.target instanceof Element ? e.target.closest('a[href^="https://nodejs.org"]') : null;
      if (a) e.preventDefault();
    }),
  );
  console.log('Site insights in headless Chromium');

  const aggregate = (body) => api('POST', `${base}/insights/events/aggregate`, { range: 'last24Hours', ...body });
  const countsBy = async (column, where = []) => {
    const { columns } = await aggregate({ groupBy: [{ column }], where });
    return Object.fromEntries(columns[0].values.map((v, i) => [JSON.stringify(v), columns[1].values[i]]));
  };
  /** Everything the script queued is sent: a navigation away sends at once, a page left open within a second. */
  const settle = () => tab.waitForTimeout(1500);

  await check('a visitor reads, searches (with and without results), opens a hit, rates and comments, follows a link out', async () => {
    await tab.goto(`${root}install`, { waitUntil: 'networkidle' });
    const search = tab.getByRole('searchbox', { name: 'Search' });
    await search.fill('zeppelin');
    await tab.waitForFunction(() => document.querySelector('form.search [aria-live]')?.textContent?.startsWith('No results'));
    await settle();
    await search.fill('configuration');
    await tab.locator('#suggest a').first().waitFor();
    await settle();
    await search.press('ArrowDown');
    await tab.keyboard.press('Enter');
    await tab.waitForURL(`${root}configure`);
    await tab.goto(`${root}install`, { waitUntil: 'networkidle' });
    await tab.getByRole('button', { name: 'Yes' }).click();
    await tab.locator('#feedback-comment').fill('Clear steps.');
    await tab.getByRole('button', { name: 'Send comment' }).click();
    await tab.getByRole('status').filter({ hasText: 'Thank you for your feedback.' }).waitFor();
    await tab.getByRole('link', { name: 'Node.js download page' }).click();
    await settle();
  });

  await check('the search page counts its search; “Ask the documentation” asks it and says there is no model here; axe clean', async () => {
    await tab.goto(`${root}~search?q=installer`, { waitUntil: 'networkidle' });
    await tab.getByRole('button', { name: 'Ask the documentation' }).click();
    await tab.locator('.ask-answer').getByText('No language model is configured').waitFor();
    if (!(await tab.locator('.ask-answer a', { hasText: 'Install' }).count())) throw new Error('the matching page is not listed');
    await axeCheck(tab, AXE);
    if (process.env.QUIRE_SCREENSHOTS) await tab.screenshot({ path: 'docs/screenshots/site-ask.png' });
    // Followed from the search page (its referrer is the page the visitor came from).
    await tab.evaluate((u) => {
      location.href = u;
    }, notFound);
    await tab.waitForURL(notFound);
    await settle();
  });

  await check('aggregateSiteEvents shows exactly those events', async () => {
    const byType = await countsBy('eventType');
    const expected = {
      '"page_view"': 4, // install, configure (from the hit), install again, the missing page
      '"search_type_query"': 3, // zeppelin, configuration, the search page's installer
      '"search_open_result"': 1,
      '"page_post_feedback"': 1,
      '"page_post_feedback_comment"': 1,
      '"link_click"': 1,
      '"ask_question"': 1,
    };
    try {
      deepStrictEqual(byType, expected);
    } catch {
      throw new Error(
        `by type: ${JSON.stringify(byType)}; the script sent ${JSON.stringify(sent.map((b) => b.events.map((e) => e.type)))}`,
      );
    }
    const none = await countsBy('eventSearchQuery', [{ column: 'eventSearchResultsCount', values: [0] }]);
    if (JSON.stringify(none) !== '{"\\"zeppelin\\"":1}') throw new Error(`searches with no result: ${JSON.stringify(none)}`);
    const found = await countsBy('eventSearchQuery', [
      { column: 'eventType', values: ['search_type_query'] },
      { column: 'eventSearchResultsCount', values: [0], operator: 'notIn' },
    ]);
    if (JSON.stringify(found) !== '{"\\"configuration\\"":1,"\\"installer\\"":1}')
      throw new Error(`searches with results: ${JSON.stringify(found)}`);
    const comments = await countsBy('eventPageFeedbackComment', [{ column: 'eventType', values: ['page_post_feedback_comment'] }]);
    if (JSON.stringify(comments) !== '{"\\"Clear steps.\\"":1}') throw new Error(`comments: ${JSON.stringify(comments)}`);
    const { columns } = await aggregate({
      select: [{ column: 'pageFeedbackRating' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
    });
    deepStrictEqual(
      columns.map((c) => c.values[0]),
      [{ ok: 0, good: 1, bad: 0 }, 1, 1],
      `ratings, visitors, sessions: ${JSON.stringify(columns)}`,
    );
    const missing = await aggregate({
      where: [
        { column: 'eventType', values: ['page_view'] },
        { column: 'page', values: [null] },
      ],
      groupBy: [{ column: 'urlPath' }, { column: 'referrerDomain' }],
    });
    if (JSON.stringify(missing.columns.map((c) => c.values)) !== JSON.stringify([[`/sites/${site}/no-such-page`], ['127.0.0.1'], [1]]))
      throw new Error(`404s: ${JSON.stringify(missing.columns)}`);
    const links = await countsBy('eventLinkTargetDomain', [{ column: 'eventType', values: ['link_click'] }]);
    if (JSON.stringify(links) !== '{"\\"nodejs.org\\"":1}') throw new Error(`links out: ${JSON.stringify(links)}`);
    const asked = await countsBy('eventAskAnswered', [{ column: 'eventType', values: ['ask_question'] }]);
    if (JSON.stringify(asked) !== '{"false":1}') throw new Error(`questions: ${JSON.stringify(asked)}`);
  });

  await check('a visitor whose browser asks not to be tracked (DNT) sends nothing and is not counted', async () => {
    const before = (await aggregate({})).columns[0].values[0];
    // What a browser with “Do Not Track” on does: the header on every request, and navigator.doNotTrack.
    const quiet = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { DNT: '1' } });
    await quiet.addInitScript(() => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' }));
    await quiet.route(
      (url) => !url.href.startsWith(origin),
      (r) => r.abort(),
    );
    const p = watch(await quiet.newPage());
    const posted = [];
    p.on('request', (r) => r.url().endsWith('/insights/events') && posted.push(r.url()));
    await p.goto(`${root}configure`, { waitUntil: 'networkidle' });
    await p.goto(`${root}install`, { waitUntil: 'networkidle' });
    await p.getByRole('button', { name: 'Yes' }).click();
    await p.waitForTimeout(1500);
    if (posted.length) throw new Error(`events were sent: ${posted.length}`);
    const after = (await aggregate({})).columns[0].values[0];
    if (after !== before) throw new Error(`counted: ${before} → ${after}`);
    await quiet.close();
  });

  await check(
    'the insights screen shows those events: totals, the chart, tables, topics; CSV; a topic opens a change request; axe',
    async () => {
      const app = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      const p = watch(await app.newPage());
      await p.goto(`${origin}/app/sign-in/link#${signInToken}`);
      await p.waitForURL(`${origin}/app/`);
      await p.goto(`${origin}/app/o/${organization}/sites/${site}`);
      // The topics held back, as a large site's first read is (it indexes the site): the rest shows without them.
      let release;
      const held = new Promise((resolve) => (release = resolve));
      const isTopics = (url) => url.pathname.endsWith('/insights/topics');
      await p.route(isTopics, async (route) => {
        await held;
        await route.continue();
      });
      await p.getByRole('link', { name: 'Insights' }).click();
      await p.getByRole('heading', { name: 'Insights: Handbook' }).waitFor();
      const section = (name) => p.locator('section', { has: p.getByRole('heading', { name, exact: true }) });
      await p.locator('.insights-totals').waitFor();
      const waiting = await section('Topics visitors did not find').getByRole('status').innerText();
      if (!waiting.includes('Grouping')) throw new Error(`topics while held: ${waiting}`);
      if (process.env.QUIRE_SCREENSHOTS) await p.screenshot({ path: 'docs/screenshots/app-insights-topics-waiting.png', fullPage: true });
      release();
      await p.locator('.insights-topics').waitFor();
      await p.unroute(isTopics);
      const totals = await p.locator('.insights-totals').innerText();
      if (!/4\s*page views/.test(totals) || !/3\s*searches/.test(totals) || !/1\s*questions/.test(totals) || !/1\s*ratings/.test(totals))
        throw new Error(`totals: ${totals}`);
      const chart = await p.getByRole('img', { name: /Page views per day: 4 in all/ }).count();
      if (chart !== 1) throw new Error('no chart of the 4 page views');
      const unfound = await section('Searches with no result').innerText();
      if (!unfound.includes('zeppelin') || unfound.includes('configuration')) throw new Error(`no result: ${unfound}`);
      const top = await section('Top searches').innerText();
      if (!top.includes('configuration') || !top.includes('installer')) throw new Error(`top searches: ${top}`);
      const comments = await section('Latest feedback with comments').innerText();
      if (!comments.includes('Clear steps.') || !comments.includes('good')) throw new Error(`comments: ${comments}`);
      const pages = await section('Top pages').innerText();
      if (!pages.includes(`/sites/${site}/install`)) throw new Error(`top pages: ${pages}`);
      // The CSV of a table is what it shows.
      const [csv] = await Promise.all([
        p.waitForEvent('download'),
        section('Searches with no result').getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      const text = readFileSync(await csv.path(), 'utf8');
      if (text !== 'Search,Times\r\nzeppelin,1\r\n') throw new Error(`CSV: ${JSON.stringify(text)}`);
      const topics = await section('Topics visitors did not find').innerText();
      if (!topics.includes('zeppelin') || !topics.includes('installer')) throw new Error(`topics: ${topics}`);
      await axeCheck(p, AXE);
      if (process.env.QUIRE_SCREENSHOTS) await p.screenshot({ path: 'docs/screenshots/app-insights.png', fullPage: true });
      const zeppelin = p.locator('.insights-topics li', { hasText: 'zeppelin' });
      await zeppelin.getByRole('button', { name: 'Open a change request' }).click();
      await zeppelin
        .getByRole('link', { name: /Change request #\d+/ })
        .or(zeppelin.getByRole('alert'))
        .waitFor();
      if (await zeppelin.getByRole('alert').count()) throw new Error(`no change request: ${await zeppelin.getByRole('alert').innerText()}`);
      // Dark and on a phone: readable (axe), nothing wider than the screen.
      await p.emulateMedia({ colorScheme: 'dark' });
      await p.setViewportSize({ width: 390, height: 844 });
      await axeCheck(p, AXE);
      const wide = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 1) throw new Error(`the screen is ${wide}px wider than a phone`);
      if (process.env.QUIRE_SCREENSHOTS) await p.screenshot({ path: 'docs/screenshots/app-insights-phone-dark.png', fullPage: true });
      await app.close();
    },
  );

  await check('a member without a role on the site gets no insights', async () => {
    const other = await api('POST', '/orgs', { title: 'Elsewhere' }).catch(() => null);
    if (!other) return; // creating organizations may be closed; the e2e tests cover strangers
    const res = await fetch(`${origin}/v1/orgs/${other.id}/sites/${site}/insights/events/aggregate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ range: 'last7Days' }),
    });
    if (res.status !== 404) throw new Error(`another organization's path: ${res.status}`);
  });

  await check('no page logged a console error, no resource failed', async () => {
    if (errors.length) throw new Error(errors.join('\n'));
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
