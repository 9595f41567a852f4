// Browser test (#49): a site made of GitBook's own constructs (test/fixtures/gitbook-constructs, written the way
// GitBook writes each block) read in Debian's headless Chromium as visitors would: cards (their covers, the whole
// card a link), buttons and icons, conditional content for two visitors, a mermaid diagram (light and dark), an
// annotation reached by the keyboard, dark mode and a phone; axe-core on each page, no console error.
// Screenshots: docs/screenshots/gitbook-*.png with QUIRE_SCREENSHOTS=1.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { apiClient, axeCheck, check, launchChromium, results, startServer } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const REPO = 'test/fixtures/gitbook-constructs';
const read = (path) => readFileSync(join(REPO, path), 'utf8');
const asset = (name) => readFileSync(join(REPO, '.gitbook/assets', name)).toString('base64');

let server;
let browser;
try {
  server = await startServer();
  const { origin, token, organization } = server;
  if (!token || !organization) throw new Error('no first-start token or organization in the server output');
  const api = apiClient(server);
  // The fixture's pages at the paths their links name (README.md → the top page, guide/setup.md → guide/setup …);
  // the covers as the space's files, their refs the paths the cards name.
  const space = (await api('POST', `/orgs/${organization}/spaces`, { title: 'Fluent' })).id;
  const cr = (await api('POST', `/spaces/${space}/change-requests`, { subject: 'GitBook constructs' })).id;
  const files = ['quickstart-cover.png', 'quickstart-cover-dark.png', 'plugins-cover.png'].map((name) => ({
    ref: `.gitbook/assets/${name}`,
    name,
    contentType: 'image/png',
    base64: asset(name),
  }));
  const page = (ref, markdown, extra = {}) => ({ operation: 'insert_page', ref, document: { markdown }, ...extra });
  await api('POST', `/spaces/${space}/change-requests/${cr}/content`, {
    changes: [
      { operation: 'insert_files', files },
      page('welcome', read('README.md'), { slug: 'welcome' }),
      page('getting-started', read('getting-started.md'), { slug: 'getting-started' }),
      page('guide', read('guide/README.md'), { slug: 'guide' }),
      page('setup', read('guide/setup.md').replace(/\.\.\/\.gitbook\/assets\//g, '.gitbook/assets/'), { into: 'guide', slug: 'setup' }),
      page('reference', '# Reference\n\nThe plugins.\n', { slug: 'reference' }),
      page('plugins', read('reference/plugins.md'), { into: 'reference', slug: 'plugins' }),
    ],
  });
  await api('POST', `/spaces/${space}/change-requests/${cr}/merge`);
  const site = (await api('POST', `/orgs/${organization}/sites`, { title: 'Fluent' })).id;
  const base = `/orgs/${organization}/sites/${site}`;
  await api('POST', `${base}/site-spaces`, { spaceId: space });
  await api('PUT', `${base}/adaptive-schema`, {
    jsonSchema: {
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { beta: { type: 'boolean', description: 'Beta' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  });
  await api('PATCH', base, { adaptiveContent: { enabled: true } });
  const customization = await api('GET', `${base}/customization`);
  await api('PUT', `${base}/customization`, { ...customization, feedback: { enabled: true } });
  await api('POST', `${base}/publish`);
  const root = `${origin}/sites/${site}/`;

  browser = await launchChromium();
  const errors = [];
  const watch = (p) => {
    p.on('console', (m) => m.type() === 'error' && errors.push(`${p.url()}: ${m.text()}`));
    p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
    p.on('response', (r) => r.status() >= 400 && errors.push(`${p.url()}: ${r.status()} for ${r.url()}`));
    return p;
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Tests stay on loopback: nothing else is reachable.
  await context.route(
    (url) => !url.href.startsWith(origin),
    (r) => r.abort(),
  );
  const tab = watch(await context.newPage());
  console.log('A GitBook site in headless Chromium');

  const axe = (p) => axeCheck(p, AXE);
  /** Whether every image of the selector loaded (a broken image has no natural width). */
  const loaded = (p, selector) => p.$$eval(selector, (imgs) => imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0));

  await check('cards: three cards with their covers, each card a link to its target (a click on the cover opens it)', async () => {
    await tab.goto(`${root}welcome`, { waitUntil: 'networkidle' });
    const cards = await tab.$$('ul.cards > li.card');
    if (cards.length !== 3) throw new Error(`${cards.length} cards`);
    if (!(await loaded(tab, '.card-cover.img-light, .card-cover:not(.img-dark)'))) throw new Error('a cover did not load');
    const names = await tab.$$eval('.card-target', (as) => as.map((a) => a.textContent));
    if (names.join() !== 'Quickstart,Pipelines,Plugins') throw new Error(`card links: ${names}`);
    if (await tab.$('table')) throw new Error('a table is shown (the cards as raw rows)');
    // GitBook's grid: three medium cards side by side at this width, each as wide as the others.
    const boxes = await tab.$$eval('ul.cards > li.card', (cs) =>
      cs.map((c) => c.getBoundingClientRect()).map((b) => [Math.round(b.top), Math.round(b.width)]),
    );
    if (new Set(boxes.map((b) => b[0])).size !== 1 || new Set(boxes.map((b) => b[1])).size !== 1)
      throw new Error(`cards not in one row of three: ${JSON.stringify(boxes)}`);
    await axe(tab);
    if (process.env.QUIRE_SCREENSHOTS) await tab.screenshot({ path: 'docs/screenshots/gitbook-cards.png' });
    // The card's link covers the whole card: a click on the cover lands on it (as a person's click would).
    const box = await tab.locator('ul.cards > li.card:first-child .card-cover.img-light').boundingBox();
    await tab.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await tab.waitForURL(`${root}getting-started`);
  });

  await check('buttons and icons: links with accessible names, icons drawn and hidden from screen readers, no :name: text', async () => {
    await tab.goto(`${root}welcome`);
    const button = tab.getByRole('link', { name: 'Get started' });
    if ((await button.getAttribute('class')) !== 'button button-primary button-large') throw new Error('no primary button');
    const icons = await tab.$$eval('.document svg.icon', (svgs) =>
      svgs.map((s) => [s.getAttribute('aria-hidden'), s.getBoundingClientRect().width]),
    );
    if (icons.length < 3 || icons.some(([hidden, width]) => hidden !== 'true' || width < 8))
      throw new Error(`icons: ${JSON.stringify(icons)}`);
    const text = await tab.textContent('main');
    if (/:bolt:|:rocket:|:github:/.test(text ?? '')) throw new Error('an icon shows as its name');
    await button.click();
    await tab.waitForURL(`${root}getting-started`);
  });

  await check('conditional content: a visitor without the claim sees the else branch, one with it the beta content', async () => {
    await tab.goto(`${root}getting-started`);
    const plain = (await tab.textContent('main')) ?? '';
    if (!plain.includes('Want the new buffer engine early?') || plain.includes('buffer_engine v2'))
      throw new Error('wrong branch without the claim');
    const beta = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await beta.addCookies([{ name: 'gitbook-visitor-public', value: encodeURIComponent(JSON.stringify({ beta: true })), url: origin }]);
    const betaTab = watch(await beta.newPage());
    await betaTab.goto(`${root}getting-started`);
    const shown = (await betaTab.textContent('main')) ?? '';
    if (!shown.includes('buffer_engine v2') || shown.includes('Want the new buffer engine early?'))
      throw new Error('wrong branch with the claim');
    await axe(betaTab);
    await beta.close();
  });

  await check('a mermaid diagram is drawn (its image loads), an annotation opens on keyboard focus; axe clean', async () => {
    await tab.goto(`${root}guide/setup`, { waitUntil: 'networkidle' });
    if (!(await loaded(tab, 'figure.diagram img.img-light'))) throw new Error('the diagram did not load');
    if (!(await tab.isVisible('figure.diagram img.img-light')) || (await tab.isVisible('figure.diagram img.img-dark')))
      throw new Error('light mode shows the wrong drawing');
    if (await tab.isVisible('.annotation-body')) throw new Error('the annotation shows before focus');
    await tab.focus('.annotated');
    if (!(await tab.isVisible('.annotation-body'))) throw new Error('the annotation does not open on focus');
    // Enter pins it open (it stays when the focus leaves), Escape closes it.
    const blur = () => tab.locator('.annotated').evaluate((e) => e.blur());
    await tab.keyboard.press('Enter');
    await blur();
    if (!(await tab.isVisible('.annotation-body'))) throw new Error('the pinned annotation closed');
    await tab.focus('.annotated');
    await tab.keyboard.press('Escape');
    await blur();
    if (await tab.isVisible('.annotation-body')) throw new Error('Escape did not close the annotation');
    // A hint that starts with a heading shows it as its header row, on a tint of the hint's colour.
    const hint = tab.getByRole('note', { name: 'Success' });
    const head = await hint.locator('.hint-head').evaluate((e) => [e.textContent, getComputedStyle(e).backgroundColor]);
    const body = await hint.locator('.hint-body').evaluate((e) => getComputedStyle(e.parentElement).backgroundColor);
    if (!head[0].startsWith('Filter early') || head[1] === body) throw new Error(`hint header: ${JSON.stringify([head, body])}`);
    await axe(tab);
    if (process.env.QUIRE_SCREENSHOTS) {
      await tab.locator('figure.diagram').scrollIntoViewIfNeeded();
      await tab.screenshot({ path: 'docs/screenshots/gitbook-diagram.png' });
      await hint.scrollIntoViewIfNeeded();
      await hint.screenshot({ path: 'docs/screenshots/gitbook-hint.png' });
    }
  });

  await check('dark mode: the dark cover and the dark drawing, readable buttons; axe clean', async () => {
    await tab.emulateMedia({ colorScheme: 'dark' });
    await tab.goto(`${root}guide/setup`, { waitUntil: 'networkidle' });
    if (!(await tab.isVisible('figure.diagram img.img-dark')) || (await tab.isVisible('figure.diagram img.img-light')))
      throw new Error('dark mode shows the light drawing');
    await tab.goto(`${root}welcome`, { waitUntil: 'networkidle' });
    if (!(await tab.isVisible('.card-cover.img-dark'))) throw new Error('dark mode hides the dark cover');
    if (await tab.isVisible('.card-cover.img-light')) throw new Error('dark mode shows the light cover');
    await axe(tab);
    if (process.env.QUIRE_SCREENSHOTS) await tab.screenshot({ path: 'docs/screenshots/gitbook-dark.png' });
    await tab.emulateMedia({ colorScheme: 'light' });
  });

  await check('on a phone: one card per row, nothing overflows sideways; axe clean', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.route(
      (url) => !url.href.startsWith(origin),
      (r) => r.abort(),
    );
    const p = watch(await phone.newPage());
    await p.goto(`${root}welcome`, { waitUntil: 'networkidle' });
    const widths = await p.$$eval('ul.cards > li.card', (cards) => cards.map((c) => Math.round(c.getBoundingClientRect().left)));
    if (new Set(widths).size !== 1) throw new Error(`cards side by side on a phone: ${widths}`);
    const overflow = await p.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
    if (overflow > 1) throw new Error(`the page overflows by ${overflow}px`);
    await axe(p);
    if (process.env.QUIRE_SCREENSHOTS) await p.screenshot({ path: 'docs/screenshots/gitbook-phone.png', fullPage: true });
    await phone.close();
  });

  await check('the theme toggle: system → light → dark, kept on the next page; "Copy page" copies the markdown', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const p = watch(await ctx.newPage());
    await p.goto(`${root}getting-started`, { waitUntil: 'networkidle' });
    const toggle = p.getByRole('button', { name: /^Theme: / });
    if ((await toggle.textContent()) !== 'Theme: system') throw new Error(`toggle: ${await toggle.textContent()}`);
    await toggle.click();
    await toggle.click();
    if (
      (await toggle.textContent()) !== 'Theme: dark' ||
      !(await p.evaluate(() => document.documentElement.classList.contains('theme-dark')))
    )
      throw new Error('the toggle did not make the page dark');
    await p.goto(`${root}welcome`, { waitUntil: 'networkidle' });
    if (!(await p.evaluate(() => document.documentElement.classList.contains('theme-dark')))) throw new Error('the choice was not kept');
    if (!(await p.isVisible('.card-cover.img-dark'))) throw new Error('the chosen dark theme shows the light cover');
    await axe(p);
    await p.goto(`${root}getting-started`, { waitUntil: 'networkidle' });
    await p.getByRole('button', { name: 'Copy page' }).click();
    await p.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await p.evaluate(() => navigator.clipboard.readText());
    if (!copied.startsWith('# Getting started') || !copied.includes('## Configure')) throw new Error(`copied: ${copied.slice(0, 80)}`);
    // The other actions in a menu, by keyboard: it opens with Enter, its links follow, Escape closes it.
    await p.getByRole('navigation', { name: 'Page actions' }).locator('summary').focus();
    await p.keyboard.press('Enter');
    const view = p.getByRole('link', { name: 'View as Markdown' });
    await view.waitFor();
    await p.keyboard.press('Tab');
    if (!(await view.evaluate((e) => e === document.activeElement))) throw new Error('Tab does not reach the menu’s first action');
    await axe(p);
    if (process.env.QUIRE_SCREENSHOTS)
      await p.screenshot({ path: 'docs/screenshots/gitbook-actions.png', clip: { x: 0, y: 0, width: 1280, height: 420 } });
    await p.keyboard.press('Escape');
    if (await view.isVisible()) throw new Error('Escape did not close the menu');
    // "Last updated" as GitBook says it: relative to now, the date in its title.
    const updated = p.locator('.last-updated time');
    if (
      !/ago|yesterday|today|now|last|this/.test((await updated.textContent()) ?? '') ||
      !/\d{4}$/.test((await updated.getAttribute('title')) ?? '')
    )
      throw new Error(`last updated: ${await updated.textContent()}`);
    await ctx.close();
  });

  await check('page feedback by keyboard: the rating, then a comment; both listed through the API; axe clean', async () => {
    const p = watch(await context.newPage());
    await p.goto(`${root}getting-started`, { waitUntil: 'networkidle' });
    const form = p.getByRole('form', { name: 'Was this page helpful?' });
    if (await p.isVisible('#feedback-comment')) throw new Error('the comment box shows before a rating');
    await form.getByRole('button', { name: 'Yes' }).focus();
    await p.keyboard.press('Enter');
    await p.getByRole('status').filter({ hasText: 'Anything to add?' }).waitFor();
    const box = p.getByRole('textbox', { name: 'Anything to add? (optional)' });
    if (!(await box.evaluate((e) => e === document.activeElement))) throw new Error('the comment box did not take the focus');
    await p.keyboard.type('The configure step is clear.');
    await axe(p);
    if (process.env.QUIRE_SCREENSHOTS) await form.screenshot({ path: 'docs/screenshots/gitbook-feedback.png' });
    await form.getByRole('button', { name: 'Send comment' }).click();
    await p.getByRole('status').filter({ hasText: 'Thank you for your feedback.' }).waitFor();
    const listed = await api('GET', `${base}/page-feedback`);
    const [item] = listed.items;
    if (
      listed.items.length !== 1 ||
      item.rating !== 'good' ||
      item.comment !== 'The configure step is clear.' ||
      item.page.path !== 'getting-started'
    )
      throw new Error(`listed: ${JSON.stringify(listed.items)}`);
    await p.close();
  });

  await check("a member's preview marks the link that leads nowhere (visitors see its text); axe clean", async () => {
    const preview = (await api('GET', base)).urls.preview;
    const p = watch(await browser.newPage());
    await p.goto(`${root}guide`);
    if (await p.$('.broken-link')) throw new Error('a visitor sees a broken-link mark');
    await p.goto(preview, { waitUntil: 'networkidle' });
    await p.goto(`${root}guide`, { waitUntil: 'networkidle' });
    const mark = p.locator('.broken-link');
    if ((await mark.getAttribute('title')) !== 'Broken link: ../old/retired.md' || !(await mark.isVisible()))
      throw new Error('the preview does not mark the broken link');
    if (!/retired page\s*\(broken link\)/.test(await mark.evaluate((e) => e.textContent))) throw new Error('no text for screen readers');
    await axe(p);
    await p.close();
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
