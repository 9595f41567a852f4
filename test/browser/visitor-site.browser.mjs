// Browser test: a published site read as a visitor would, in Debian's headless Chromium. Seeds a site
// through the API (real markdown from the corpus fixtures), then clicks through the sidebar, checks the
// keyboard's first stop, dark mode and the mobile layout, a share-link site with and without its key,
// search (the form, and as you type), a visitor token whose claims hide a section, a custom font's faces
// loading under the site's CSP, that no page logs a
// console error, and axe-core on the home page, a content-rich page, search and the 404 page (no serious
// or critical violation). Screenshots: docs/screenshots/ with QUIRE_SCREENSHOTS=1.
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { createRequire } from 'node:module';
import { apiClient, axeCheck, check, launchChromium, results, startServer } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const README = readFileSync('libs/content-model/src/test/fixtures/real-markdown/range-parser__README.md', 'utf8');

let server;
let browser;
try {
  server = await startServer();
  const { origin, token, organization } = server;
  if (!token || !organization) throw new Error('no first-start token or organization in the server output');
  const api = apiClient(server);
  const space = (await api('POST', `/orgs/${organization}/spaces`, { title: 'Handbook' })).id;
  const cr = (await api('POST', `/spaces/${space}/change-requests`, { subject: 'Pages' })).id;
  await api('POST', `/spaces/${space}/change-requests/${cr}/content`, {
    changes: [
      {
        operation: 'insert_page',
        ref: 'intro',
        document: { markdown: '---\ntitle: Introduction\ndescription: Start here\n---\n\nWelcome. Read the [guide](./guide/setup.md).\n' },
      },
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'How to use the handbook.' } },
      { operation: 'insert_page', ref: 'setup', into: 'guide', title: 'Setup', document: { markdown: README } },
      {
        operation: 'insert_page',
        ref: 'showcase',
        title: 'Showcase',
        document: {
          markdown:
            '---\ncover: https://images.example.com/cover.png\nlayout:\n  width: wide\n  cover:\n    visible: true\n    size: full\n  outline:\n    visible: false\n---\n\n' +
            'Some words are <mark style="color:red;">**red**</mark>, some <mark style="background-color:yellow;">highlighted</mark>, ' +
            'some <mark style="color:$primary;">in the site’s colour</mark>.\n\n' +
            '{% prompt description="Ask an assistant to summarize this page" openInAIProviders="true" %}\n```\nSummarize the Handbook’s showcase page in three bullet points.\n```\n{% endprompt %}\n',
        },
      },
    ],
  });
  await api('POST', `/spaces/${space}/change-requests/${cr}/merge`);
  // The README's own first heading names its page: read where it landed.
  const nested = (await api('GET', `/spaces/${space}/content/pages`)).pages.find((p) => p.title === 'Guide').pages[0];
  const site = async (body) => {
    const id = (await api('POST', `/orgs/${organization}/sites`, { title: 'Handbook', ...body })).id;
    await api('POST', `/orgs/${organization}/sites/${id}/site-spaces`, { spaceId: space });
    await api('POST', `/orgs/${organization}/sites/${id}/publish`);
    return id;
  };
  const publicSite = await site({});
  const root = `${origin}/sites/${publicSite}/`;

  browser = await launchChromium();
  // Tests stay on loopback: what a real page loads from elsewhere (a README's badges) gets a blank image.
  const offline = (ctx) =>
    ctx.route(
      (url) => !url.href.startsWith(origin),
      (r) =>
        r.fulfill({ status: 200, contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>' }),
    );
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await offline(context);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  // A resource a page loads (a stylesheet, a script, an image, its icon) never fails; only the 404 pages visited on purpose may.
  page.on('response', (r) => {
    if (r.status() >= 400 && r.request().resourceType() !== 'document') errors.push(`${page.url()}: ${r.status()} for ${r.url()}`);
  });
  console.log('A published site in headless Chromium');

  /** axe-core in the page (evaluated by the driver: the site's CSP admits no injected script); serious or critical only. */
  const axe = () => axeCheck(page, AXE);

  await check('the home page renders the first page, with no serious accessibility violation', async () => {
    const res = await page.goto(root, { waitUntil: 'networkidle' });
    if (res?.status() !== 200) throw new Error(`status ${res?.status()}`);
    if ((await page.textContent('h1')) !== 'Introduction') throw new Error(`h1 was ${await page.textContent('h1')}`);
    await axe();
  });

  await check('the page declares its icon, which loads; the origin answers favicon.ico', async () => {
    const href = await page.getAttribute('link[rel="icon"]', 'href');
    if (href !== `${root}favicon.ico`) throw new Error(`icon: ${href}`);
    // Headless Chromium does not fetch icons itself: ask for it as a tab would (with the page's cookies).
    const res = await page.request.get(href);
    if (res.status() !== 200 || !/^image\/svg\+xml/.test(res.headers()['content-type'] ?? '')) throw new Error(`icon: ${res.status()}`);
    const atRoot = await fetch(`${origin}/favicon.ico`);
    if (atRoot.status !== 200 || !/^image\//.test(atRoot.headers.get('content-type') ?? ''))
      throw new Error(`/favicon.ico: ${atRoot.status}`);
  });

  await check('the first Tab reaches the skip link, which leads to the content', async () => {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent);
    if (focused !== 'Skip to content') throw new Error(`first focus: ${focused}`);
    await page.keyboard.press('Enter');
    // The fragment navigation lands a moment after the key (a busy CI machine saw the URL before it).
    await page.waitForURL(/#content$/, { timeout: 5000 }).catch(() => {
      throw new Error(`after Enter: ${page.url()}`);
    });
  });

  await check('clicking through the sidebar reaches a nested page, marked current, its parent open', async () => {
    await page.goto(root, { waitUntil: 'networkidle' });
    await page.click('nav.sidebar li.has-children:has(> a:has-text("Guide")) > details > summary');
    await page.click(`nav.sidebar a:text-is("${nested.title}")`);
    await page.waitForURL((u) => u.pathname.endsWith(`/${nested.path}`));
    if ((await page.textContent('h1')) !== nested.title) throw new Error(`not on ${nested.title}`);
    const current = await page.getAttribute('nav.sidebar a[aria-current="page"]', 'href');
    if (!current?.endsWith(`/${nested.path}`)) throw new Error(`current: ${current}`);
    if (!(await page.$('nav.sidebar li.has-children:has(> a:has-text("Guide")) > details[open]'))) throw new Error('Guide is not open');
    if (process.env.QUIRE_SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/site-desktop.png' });
  });

  await check('a content-rich page (a real README: headings, code, lists) has no serious accessibility violation', async () => {
    if ((await page.$$('main h2, main h3')).length < 3) throw new Error('the README lost its headings');
    if (!(await page.$('figure.code pre code'))) throw new Error('no code block');
    // Highlighted by shiki on the server, coloured by the site's stylesheet (classes: the CSP allows no style attribute).
    const colors = await page.$$eval('code.language-js .line:first-child > span', (spans) =>
      spans.map((s) => `${s.textContent}=${getComputedStyle(s).color}`),
    );
    const keyword = colors.find((c) => c.startsWith('var='));
    const plain = await page.$eval('code.language-js', (c) => getComputedStyle(c).color);
    if (!keyword || keyword === `var=${plain}`) throw new Error(`js keyword not coloured: ${colors.join(' ')}`);
    await axe();
    await page.click('nav.toc a >> nth=0');
    const hash = new URL(page.url()).hash;
    if (!hash || !(await page.$(`[id="${decodeURIComponent(hash.slice(1))}"]`))) throw new Error(`on-page link to ${hash} has no target`);
  });

  await check('the copy button (the only script) copies a code block', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.click('figure.code >> nth=0 >> button.copy');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const code = await page.textContent('figure.code >> nth=0 >> code');
    if (copied.trim() !== code?.trim()) throw new Error('clipboard differs from the code block');
  });

  await check(
    'a page with a cover, a wide layout, colour marks and a prompt: readable, keyboard-operable, no serious violation',
    async () => {
      await page.goto(`${root}showcase`, { waitUntil: 'networkidle' });
      const cover = await page.$eval('img.cover', (img) => ({ width: img.getBoundingClientRect().width, alt: img.getAttribute('alt') }));
      const article = await page.$eval('article', (a) => a.getBoundingClientRect().width);
      if (cover.alt !== '' || cover.width < article)
        throw new Error(`cover ${JSON.stringify(cover)} not across the page (article ${article})`);
      // Wide, without an outline: the page takes the column a 48rem reading width and the outline would have left.
      if (article <= 48 * 16) throw new Error(`the wide page is ${article}px wide`);
      const red = await page.$eval('mark.tc-red', (m) => getComputedStyle(m).color);
      const plain = await page.$eval('article p', (p) => getComputedStyle(p).color);
      if (red === plain) throw new Error('the red mark is not coloured');
      if (await page.$('nav.toc')) throw new Error('the outline shows although the layout hides it');
      if (await page.$eval('details.prompt', (d) => d.open)) throw new Error('the prompt is open by default');
      await page.focus('details.prompt > summary');
      await page.keyboard.press('Enter');
      if (!(await page.$eval('details.prompt', (d) => d.open))) throw new Error('Enter on the summary does not open the prompt');
      const claude = await page.getAttribute('.prompt-providers a >> nth=1', 'href');
      if (!claude?.startsWith('https://claude.ai/new?q=Summarize%20the%20Handbook')) throw new Error(`assistant link ${claude}`);
      await axe();
      if (process.env.QUIRE_SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/site-blocks.png' });
    },
  );

  await check(
    'searching from the header lists hits with no serious accessibility violation; a hit lands on its page and anchor',
    async () => {
      await page.goto(root, { waitUntil: 'networkidle' });
      await page.fill('header input[name=q]', 'subranges');
      await page.press('header input[name=q]', 'Enter');
      await page.waitForURL(/~search\?q=subranges/);
      const first = page.locator('ol.hits > li > a').first();
      if ((await page.locator('ol.hits > li').count()) === 0) throw new Error('no hits');
      if (!(await page.$('ol.hits mark'))) throw new Error('no highlighted words');
      await axe();
      const href = await first.getAttribute('href');
      await first.click();
      await page.waitForURL((u) => u.pathname.endsWith(`/${nested.path}`));
      const hash = new URL(href).hash;
      if (hash && !(await page.$(`[id="${decodeURIComponent(hash.slice(1))}"]`))) throw new Error(`no target for ${hash}`);
    },
  );

  await check('the 404 page is in the site’s style and has no serious accessibility violation', async () => {
    const res = await page.goto(`${root}no/such/page`, { waitUntil: 'networkidle' });
    if (res?.status() !== 404) throw new Error(`status ${res?.status()}`);
    if ((await page.textContent('h1')) !== 'Page not found') throw new Error('not the 404 page');
    if (!(await page.$('header.site-header'))) throw new Error('no site header');
    await axe();
  });

  await check('dark mode follows the system', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${root}${nested.path}`, { waitUntil: 'networkidle' });
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    if (bg !== 'rgb(13, 17, 23)') throw new Error(`background ${bg}`);
    await axe();
    await page.emulateMedia({ colorScheme: 'light' });
  });

  await check('on a phone the navigation comes before the page, nothing overflows sideways, no Copy button covers code', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await offline(phone);
    const p = await phone.newPage();
    p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
    await p.goto(`${root}${nested.path}`, { waitUntil: 'networkidle' });
    const nav = await p.$eval('nav.sidebar', (e) => e.getBoundingClientRect());
    const main = await p.$eval('main', (e) => e.getBoundingClientRect());
    if (!(nav.bottom <= main.top + 1)) throw new Error(`sidebar ${nav.top}-${nav.bottom}, main at ${main.top}`);
    const wide = await p.evaluate(() => document.documentElement.scrollWidth);
    if (wide > 390) throw new Error(`page is ${wide}px wide`);
    // A code block's Copy button never covers its first line (a long line runs under the right edge on a phone).
    const covered = await p.$$eval(
      'figure.code',
      (figures) =>
        figures.filter((f) => {
          const button = f.querySelector('.copy')?.getBoundingClientRect();
          // The first line's boxes (highlighted tokens are boxes of their own), as far right as its text goes.
          const boxes = [...(f.querySelector('code')?.getClientRects() ?? [])];
          const first = boxes.filter((b) => b.top < boxes[0].bottom - 1);
          if (!button || first.length === 0) return false;
          const right = Math.max(...first.map((b) => b.right));
          return button.left < right && first[0].left < button.right && button.top < first[0].bottom && first[0].top < button.bottom;
        }).length,
    );
    if (covered) throw new Error(`${covered} Copy button(s) over a line of code`);
    if ((await p.$$('figure.code .copy')).length === 0) throw new Error('no Copy button on the page');
    if (process.env.QUIRE_SCREENSHOTS) await p.screenshot({ path: 'docs/screenshots/site-mobile.png' });
    await phone.close();
  });

  await check('a share-link site: 404 without the key, open with it, the next page through the cookie, 404 once revoked', async () => {
    const shared = await site({ visibility: 'share-link' });
    const link = await api('POST', `/orgs/${organization}/sites/${shared}/share-links`, { name: 'Partners' });
    const visitor = await browser.newContext();
    await offline(visitor);
    const p = await visitor.newPage();
    const at = `${origin}/sites/${shared}/`;
    if ((await p.goto(at))?.status() !== 404) throw new Error('open without a key');
    if ((await p.goto(`${at}?shareKey=${link.key}`))?.status() !== 200) throw new Error('closed with the key');
    if ((await p.goto(`${at}${nested.path}`))?.status() !== 200)
      throw new Error(`the cookie did not open the next page (cookies: ${JSON.stringify(await visitor.cookies())})`);
    await api('PATCH', `/orgs/${organization}/sites/${shared}/share-links/${link.id}`, { active: false });
    if ((await p.goto(`${at}${nested.path}`))?.status() !== 404) throw new Error('still open after the link was deactivated');
    await visitor.close();
  });

  await check('search as you type: hits appear under the field, ArrowDown enters them, Enter opens one, Escape closes', async () => {
    await page.goto(root, { waitUntil: 'networkidle' });
    await page.fill('header input[name=q]', 'subranges');
    await page.waitForSelector('#suggest:not([hidden]) a', { timeout: 5000 });
    if (!/results? for subranges/.test((await page.textContent('form.search [aria-live]')) ?? ''))
      throw new Error('the count was not announced');
    const first = await page.textContent('#suggest a strong');
    if (!/range-parser/i.test(first ?? '')) throw new Error(`first hit was ${first}`);
    if (!(await page.$('#suggest a .excerpt mark'))) throw new Error('no marked excerpt');
    if (process.env.QUIRE_SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/site-search.png' });
    await axe();
    await page.press('header input[name=q]', 'ArrowDown');
    if (!(await page.evaluate(() => document.activeElement?.closest('#suggest') !== null)))
      throw new Error('ArrowDown did not enter the list');
    await page.keyboard.press('Escape');
    if (!(await page.$('#suggest[hidden]'))) throw new Error('Escape did not close the list');
    await page.fill('header input[name=q]', 'subrange');
    await page.waitForSelector('#suggest:not([hidden]) a', { timeout: 5000 });
    await page.press('header input[name=q]', 'ArrowDown');
    await Promise.all([page.waitForURL(/\/guide\//), page.keyboard.press('Enter')]);
    if (!page.url().includes(nested.path)) throw new Error(`landed on ${page.url()}`);
  });

  await check('a visitor token whose claims hide a section: gone from the tabs, search and its URL; the claim brings it back', async () => {
    const secret = (await api('POST', `/orgs/${organization}/spaces`, { title: 'Beta programme' })).id;
    const scr = (await api('POST', `/spaces/${secret}/change-requests`, { subject: 'Secret' })).id;
    await api('POST', `/spaces/${secret}/change-requests/${scr}/content`, {
      changes: [{ operation: 'insert_page', title: 'Roadmap', document: { markdown: 'The zeppelin launches next spring.' } }],
    });
    await api('POST', `/spaces/${secret}/change-requests/${scr}/merge`);
    const id = (await api('POST', `/orgs/${organization}/sites`, { title: 'Members', visibility: 'visitor-auth' })).id;
    const base = `/orgs/${organization}/sites/${id}`;
    await api('POST', `${base}/sections`, { spaceId: space, title: 'Handbook' });
    const beta = await api('POST', `${base}/sections`, { spaceId: secret, title: 'Beta' });
    await api('PATCH', `${base}/sections/${beta.id}`, { condition: 'visitor.claims.beta' });
    await api('PUT', `${base}/adaptive-schema`, {
      jsonSchema: {
        type: 'object',
        properties: {
          beta: { type: 'boolean', description: 'In the beta programme' },
          unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: {}, additionalProperties: false },
        },
        additionalProperties: false,
      },
    });
    await api('PATCH', base, { adaptiveContent: { enabled: true } });
    const key = (await api('GET', `${base}/publishing/auth`)).privateKey;
    await api('POST', `${base}/publish`);
    const sign = (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(key));
    const at = `${origin}/sites/${id}/`;
    const visit = async (claims) => {
      const ctx = await browser.newContext();
      await offline(ctx);
      const p = await ctx.newPage();
      if ((await p.goto(`${at}?jwt_token=${await sign(claims)}`))?.status() !== 200) throw new Error('the token did not open the site');
      const tabs = await p.$$eval('nav.sections a', (a) => a.map((x) => x.textContent));
      const search = await p.goto(`${at}~search?q=zeppelin`);
      const found = (await search?.text())?.includes('Roadmap');
      const direct = (await p.goto(`${at}${beta.path}/roadmap`))?.status();
      await ctx.close();
      return { tabs, found, direct };
    };
    const without = await visit({ beta: false });
    if (without.tabs.includes('Beta') || without.found || without.direct !== 404)
      throw new Error(`hidden section still reachable: ${JSON.stringify(without)}`);
    const withClaim = await visit({ beta: true });
    if (!withClaim.tabs.includes('Beta') || !withClaim.found || withClaim.direct !== 200)
      throw new Error(`the claim did not show the section: ${JSON.stringify(withClaim)}`);
  });

  await check('an external link among the section tabs: it leads out of the site, says so to a screen reader, passes axe', async () => {
    const id = (await api('POST', `/orgs/${organization}/sites`, { title: 'With links', visibility: 'public' })).id;
    const base = `/orgs/${organization}/sites/${id}`;
    await api('POST', `${base}/sections`, { spaceId: space, title: 'Handbook' });
    await api('POST', `${base}/external-links`, { title: 'Status', url: 'https://status.example.com/' });
    await api('POST', `${base}/publish`);
    await page.goto(`${origin}/sites/${id}/`);
    const tabs = await page.$$eval('nav.sections a', (a) => a.map((x) => ({ text: x.textContent, href: x.href, rel: x.rel })));
    const link = tabs.find((t) => t.href === 'https://status.example.com/');
    if (!link || link.rel !== 'noopener noreferrer' || !link.text.includes('(another site)'))
      throw new Error(`no external tab as it should be: ${JSON.stringify(tabs)}`);
    if (!tabs.some((t) => t.text === 'Handbook')) throw new Error('the section tab is missing');
    await axe();
    if (process.env.QUIRE_SCREENSHOTS)
      await page.screenshot({ path: 'docs/screenshots/site-external-link.png', clip: { x: 0, y: 0, width: 1280, height: 160 } });
  });

  await check('a custom font: its uploaded faces load under the site’s CSP and the pages are set in it', async () => {
    const upload = async (file, type) => {
      const bytes = readFileSync(require.resolve(`katex/dist/fonts/${file}`));
      const signed = await api('POST', `/orgs/${organization}/storage/upload`, {
        file: { name: file, type, size: bytes.length },
        kind: 'customization_font',
      });
      const res = await fetch(signed.url, { method: 'PUT', headers: { 'Content-Type': type }, body: bytes });
      if (!res.ok) throw new Error(`upload ${file}: ${res.status} ${await res.text()}`);
      return signed.key;
    };
    const font = await api('PUT', `/orgs/${organization}/fonts`, {
      fontFamily: 'Quire Test Sans',
      fontFaces: [
        { weight: 400, storageKey: await upload('KaTeX_SansSerif-Regular.woff2', 'font/woff2') },
        { weight: 700, storageKey: await upload('KaTeX_SansSerif-Bold.woff', 'font/woff') },
      ],
    });
    const id = await site({ visibility: 'public' });
    const base = `/orgs/${organization}/sites/${id}`;
    const custom = await api('GET', `${base}/customization`);
    const { permissions: _permissions, ...definition } = font;
    await api('PUT', `${base}/customization`, { ...custom, styling: { ...custom.styling, font: definition } });
    await page.goto(`${origin}/sites/${id}/`, { waitUntil: 'networkidle' });
    const state = await page.evaluate(async () => {
      await document.fonts.ready;
      await document.fonts.load('700 16px "Quire Test Sans"');
      return {
        family: getComputedStyle(document.body).fontFamily,
        faces: [...document.fonts].filter((f) => f.family.includes('Quire Test Sans')).map((f) => `${f.weight}:${f.status}`),
      };
    });
    if (!state.family.startsWith('"Quire Test Sans"')) throw new Error(`the page is set in ${state.family}`);
    if (!state.faces.includes('400:loaded') || !state.faces.includes('700:loaded'))
      throw new Error(`the faces did not load: ${JSON.stringify(state.faces)}`);
    await axe();
    if (process.env.QUIRE_SCREENSHOTS)
      await page.screenshot({ path: 'docs/screenshots/site-custom-font.png', clip: { x: 0, y: 0, width: 1280, height: 420 } });
  });

  await check('no page logged a console error', async () => {
    // The 404 pages log their status as a resource error; anything else is a failure.
    const real = errors.filter((e) => !/status of 404/.test(e));
    if (real.length) throw new Error(real.join('\n'));
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
