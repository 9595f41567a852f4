// Browser test (#50, first slice): the web app at /app in Debian's headless Chromium, as a person uses it. The
// first start's one-time link signs the admin in; a password is set through the API and signs in again; the
// organization's collections and spaces as a tree, a space's page tree and a page as the site renders it; the sessions screen (end one,
// sign out). Controls found by role and name; axe-core on every screen; keyboard; a phone; no console error;
// the app's CSP. Screenshots: docs/screenshots/app-*.png with QUIRE_SCREENSHOTS=1.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { apiClient, axeCheck, check, launchChromium, results, startServer } from './harness.mjs';
import { startGitServer } from '../support/git-server.ts';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.QUIRE_SCREENSHOTS;

let server;
let browser;
let gitServer;
try {
  // Jobs on (Git Sync runs), and the loopback Git server allowed as a remote.
  gitServer = await startGitServer();
  server = await startServer({ QUIRE_JOBS: 'on', QUIRE_GIT_URL_ALLOWLIST: '127.0.0.1' });
  const { origin, organization, signInToken } = server;
  if (!signInToken) throw new Error('no sign-in link in the first start’s output');
  const api = apiClient(server);
  const me = await api('GET', '/user');
  const collection = (await api('POST', `/orgs/${organization}/collections`, { title: 'Guides' })).id;
  const space = (await api('POST', `/orgs/${organization}/spaces`, { title: 'Handbook', parent: collection })).id;
  await api('POST', `/orgs/${organization}/spaces`, { title: 'Release notes' });
  const cr = (await api('POST', `/spaces/${space}/change-requests`, { subject: 'Pages' })).id;
  await api('POST', `/spaces/${space}/change-requests/${cr}/content`, {
    changes: [
      { operation: 'insert_page', ref: 'intro', slug: 'intro', document: { markdown: '# Introduction\n\nWelcome to the handbook.\n' } },
      {
        operation: 'insert_page',
        ref: 'setup',
        slug: 'setup',
        document: { markdown: '# Set up\n\nInstall it with `npm i`.\n\n```js\nconst quire = require("quire");\n```\n' },
      },
    ],
  });
  await api('POST', `/spaces/${space}/change-requests/${cr}/merge`);
  const app = `${origin}/app`;

  browser = await launchChromium();
  const errors = [];
  /**
   * Drops the errors a check provoked on purpose (a refused link, a wrong password: their 401 in the console),
   * and those of the same kind still on their way for two seconds (a screen's parallel calls all fail, and
   * the console may report the last after the check saw the first).
   */
  const excused = [];
  const expected = (pattern) => {
    for (let i = errors.length - 1; i >= 0; i--) if (pattern.test(errors[i])) errors.splice(i, 1);
    excused.push({ pattern, until: Date.now() + 2000 });
  };
  const report = (error) => {
    if (!excused.some((e) => e.until > Date.now() && e.pattern.test(error))) errors.push(error);
  };
  const failedCalls = [];
  const watch = (p) => {
    p.on('console', (m) => m.type() === 'error' && report(`${p.url()}: ${m.text()}`));
    p.on('pageerror', (e) => report(`${p.url()}: ${e.message}`));
    // Which call failed (the console names only the page): kept for a failing check's message.
    p.on('response', (r) => r.status() >= 400 && failedCalls.push(`${r.request().method()} ${r.url()} → ${r.status()}`));
    return p;
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(
    (url) => !url.href.startsWith(origin),
    (r) => r.abort(),
  );
  const tab = watch(await context.newPage());
  const axe = (p) => axeCheck(p, AXE);
  const heading = (p, name) => p.getByRole('heading', { level: 1, name }).waitFor();
  /** A person of the organization (`role`: a role, `guest`, or null for none), signed in through their one-time link in a context of their own. */
  const person = async (email, name, role) => {
    const user = await server.cli('user:create', '--email', email, '--name', name);
    if (role) await server.cli('member:add', '--org', organization, '--user', email, '--role', role);
    const { link } = await server.cli('user:sign-in-link', '--user', email);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route(
      (url) => !url.href.startsWith(origin),
      (r) => r.abort(),
    );
    // The app's first question (is there a session?) was answered "none" before the link signed in, and the
    // answer arrives after: it must not undo the sign-in (a race a slow network makes; here made every time).
    let first = true;
    let linked;
    const signedInByLink = new Promise((res) => (linked = res));
    context.on('response', (r) => r.url().endsWith('/v1/auth/sign-in/link') && linked());
    await context.route(`${origin}/v1/auth/session`, async (r) => {
      if (!first) return r.continue();
      first = false;
      await signedInByLink;
      await r.fulfill({ status: 204 });
    });
    const page = watch(await context.newPage());
    await page.goto(`${app}/sign-in/link#${link.split('#')[1]}`); // the CLI names PUBLIC_URL; this server's port differs
    await heading(page, 'Your organizations').catch(async (e) => {
      throw new Error(`${email} not signed in: ${await page.locator('main').innerText()} (failed calls: ${failedCalls.join('; ')})`, {
        cause: e,
      });
    });
    return { id: user.id, context, page };
  };
  console.log('The web app in headless Chromium');

  await check('the app is served under its own CSP (no unsafe-inline, no framing), its assets cached for a year', async () => {
    const res = await fetch(`${app}/o/${organization}`);
    const csp = res.headers.get('content-security-policy') ?? '';
    if (
      res.status !== 200 ||
      !csp.includes("script-src 'self'") ||
      !csp.includes("frame-ancestors 'none'") ||
      csp.includes('unsafe-inline')
    )
      throw new Error(`${res.status} ${csp}`);
    const html = await res.text();
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${origin}${script}`);
    if (!/max-age=31536000/.test(asset.headers.get('cache-control') ?? ''))
      throw new Error(`asset cache: ${asset.headers.get('cache-control')}`);
    if ((await fetch(`${app}/assets/nothing.js`)).status !== 404) throw new Error('a missing asset is not 404');
    const looks = await fetch(`${app}/document.css`);
    const css = await looks.text();
    if (
      !/text\/css/.test(looks.headers.get('content-type') ?? '') ||
      !css.startsWith('@scope (.document-preview)') ||
      !css.includes('.hl-keyword{color:')
    )
      throw new Error('the sites’ stylesheet and code colours are not served');
  });

  await check('the first start’s one-time link signs the admin in, once; the address bar loses the token', async () => {
    await tab.goto(`${app}/sign-in/link#${signInToken}`);
    await heading(tab, 'Your organizations');
    if (tab.url().includes(signInToken)) throw new Error('the token stayed in the address bar');
    await tab.getByRole('link', { name: 'My organization' }).waitFor();
    await axe(tab);
    // The link again: it was used.
    const other = watch(await browser.newPage());
    await other.goto(`${app}/sign-in/link#${signInToken}`);
    await other.getByRole('alert').filter({ hasText: 'it was used' }).waitFor();
    expected(/status of 401/); // the refused link's 401 is the point here
    await other.close();
  });

  await check('settings: a password set (none before), a token made (shown once) and revoked; axe clean', async () => {
    await tab.getByRole('link', { name: 'Settings' }).click();
    await heading(tab, 'Settings');
    await tab.getByLabel('New password (10 characters or more)').fill('a long enough password');
    await tab.getByRole('button', { name: 'Set password' }).click();
    await tab.getByRole('status').filter({ hasText: 'Your password is set.' }).waitFor();
    await tab.getByLabel('What it is for').fill('CI script');
    await tab.getByRole('button', { name: 'Make a token' }).click();
    const token = (await tab.locator('code.secret').textContent()) ?? '';
    if (!/^qr_/.test(token)) throw new Error(`made: ${token}`);
    if ((await fetch(`${origin}/v1/user`, { headers: { Authorization: `Bearer ${token}` } })).status !== 200)
      throw new Error('the token does not work');
    await axe(tab);
    if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-settings.png', fullPage: true });
    await tab.getByRole('button', { name: 'Revoke CI script' }).click();
    await tab.getByText(/^revoked /).waitFor();
    if ((await fetch(`${origin}/v1/user`, { headers: { Authorization: `Bearer ${token}` } })).status !== 401)
      throw new Error('the revoked token works');
  });

  await check('a password by keyboard: the sign-in screen for a stranger, then the screen they asked for (its urls.app)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p = watch(await ctx.newPage());
    await p.goto(`${app}/o/${organization}`);
    await heading(p, 'Sign in to Quire');
    await axe(p);
    // An organization's SSO link: the sign-in screen offers its provider's start, ending in an app session.
    const sso = await (await browser.newPage()).goto(`${app}/sign-in?sso=prov-1`).then((r) => r.frame().page());
    const start = await sso.getByRole('link', { name: 'Continue with your organization’s SSO' }).getAttribute('href');
    if (start !== '/v1/sso/saml/prov-1/start?to=app') throw new Error(`SSO link ${start}`);
    await sso.close();
    if (SHOTS) await p.screenshot({ path: 'docs/screenshots/app-sign-in.png' });
    await p.getByLabel('Email').fill(me.email);
    await p.getByLabel('Password').fill('not the password');
    await p.keyboard.press('Enter');
    await p.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();
    expected(/status of 401/); // the wrong password's 401 is the point here
    await p.getByLabel('Password').fill('a long enough password');
    await p.keyboard.press('Enter');
    await heading(p, 'My organization');
    if (new URL(p.url()).pathname !== `/app/o/${organization}`) throw new Error(`landed on ${p.url()}`);
    await ctx.close();
  });

  await check('the organization: collections and spaces as a tree, found by title; axe clean', async () => {
    await tab.getByRole('link', { name: 'Quire', exact: true }).click();
    await heading(tab, 'Your organizations');
    await tab.getByRole('link', { name: 'My organization' }).click();
    await heading(tab, 'My organization');
    const tree = tab.getByRole('navigation', { name: 'Collections and spaces' });
    await tree.getByText('Guides').waitFor();
    await tree.getByRole('link', { name: 'Handbook' }).waitFor();
    await tree.getByRole('link', { name: 'Release notes' }).waitFor();
    await axe(tab);
    if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-organization.png' });
    await tab.getByLabel('Find a space').fill('hand');
    const found = tab.getByRole('list', { name: 'Spaces found' });
    await found.getByRole('link', { name: 'Handbook' }).waitFor();
    if ((await found.getByRole('link').count()) !== 1) throw new Error('the search found more than Handbook');
    await tab.getByLabel('Find a space').fill('');
    // Its members (with their role) and teams.
    await tab.getByRole('link', { name: 'Members and teams' }).click();
    await heading(tab, 'Members and teams');
    const members = tab.getByRole('table', { name: /^Members/ });
    await members.getByRole('row').filter({ hasText: me.email }).filter({ hasText: 'admin' }).waitFor();
    await axe(tab);
    await tab.goBack();
    await heading(tab, 'My organization');
  });

  await check('a space: its page tree and a page, each at a stable URL (back and forward work); axe clean', async () => {
    await tab.getByRole('link', { name: 'Handbook' }).click();
    await heading(tab, 'Handbook');
    const pages = tab.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('link', { name: 'Introduction' }).waitFor();
    await tab.getByText('Welcome to the handbook.').waitFor();
    await pages.getByRole('link', { name: 'Set up' }).click();
    // The page as the published site renders it: its code as code.
    await tab.locator('.document-preview code', { hasText: 'npm i' }).waitFor();
    // Its code block coloured as on the published site (the renderer's classes, the app's document.css).
    const keyword = tab.locator('.document-preview .hl-keyword').first();
    await keyword.waitFor();
    const [kw, text] = await Promise.all([
      keyword.evaluate((e) => getComputedStyle(e).color),
      tab
        .locator('.document-preview p')
        .first()
        .evaluate((e) => getComputedStyle(e).color),
    ]);
    if (kw === text) throw new Error(`the code is not coloured (${kw})`);
    if (new URL(tab.url()).pathname !== `/app/s/${space}/setup`) throw new Error(`page URL ${tab.url()}`);
    await axe(tab);
    if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-space.png' });
    await tab.goBack();
    await tab.getByText('Welcome to the handbook.').waitFor();
    // The space's urls.app opens this screen.
    const urls = (await api('GET', `/spaces/${space}`)).urls;
    await tab.goto(urls.app);
    await heading(tab, 'Handbook');
  });

  await check(
    'a writer edits a page in a new change request (CodeMirror, live preview), comments; a reviewer replies and approves; the merge is on the published site within a second',
    async () => {
      const site = (await api('POST', `/orgs/${organization}/sites`, { title: 'Handbook site' })).id;
      await api('POST', `/orgs/${organization}/sites/${site}/site-spaces`, { spaceId: space });
      await api('POST', `/orgs/${organization}/sites/${site}/publish`);
      const visitorPage = `${origin}/sites/${site}/intro`;
      if (!(await (await fetch(visitorPage)).text()).includes('Welcome to the handbook.')) throw new Error('the site is not published');
      const writer = await person('writer@example.com', 'Wren Writer', 'edit');
      const reviewer = await person('reviewer@example.com', 'Rey Reviewer', 'review');

      // The writer: from the space's page, a new change request and the page's editor.
      const w = writer.page;
      await w.goto(`${app}/s/${space}/intro`);
      await heading(w, 'Handbook');
      await w.getByRole('button', { name: 'Edit in a change request' }).click();
      await w.getByRole('heading', { name: 'Editing Introduction' }).waitFor();
      const editor = w.getByRole('textbox', { name: 'Markdown of Introduction' });
      await editor.waitFor();
      if (!/\/app\/s\/[\w-]+\/~\/changes\/\d+\/intro\?mode=edit$/.test(w.url())) throw new Error(`editor URL ${w.url()}`);
      await editor.click();
      await w.keyboard.press('Control+End');
      await w.keyboard.type('\n\n{% hint style="success" %}\nEdited in the browser.\n{% endhint %}\n');
      // The live preview: the site renderer's hint, before anything is saved.
      const preview = w.getByRole('region', { name: 'Preview' });
      await preview.locator('.hint.hint-success', { hasText: 'Edited in the browser.' }).waitFor();
      await axe(w);
      if (SHOTS) await w.screenshot({ path: 'docs/screenshots/app-editor.png' });
      await w.getByRole('button', { name: 'Save' }).click();
      await w.getByRole('heading', { name: 'Introduction', exact: true }).waitFor();
      await w.locator('.document-preview .hint-success', { hasText: 'Edited in the browser.' }).waitFor();
      // The change request's overview: the change as rendered blocks; a comment.
      await w.getByRole('link', { name: 'Overview' }).click();
      const changes = w.getByRole('region', { name: 'Changes to Introduction' });
      await changes.locator('ins .hint-success', { hasText: 'Edited in the browser.' }).waitFor();
      // The description, written in markdown and read as the site renders it.
      const description = w.getByRole('region', { name: 'Description' });
      await description.getByText('No description.').waitFor();
      await description.getByRole('button', { name: 'Edit description' }).click();
      await description.getByRole('textbox', { name: 'Markdown of the description' }).click();
      await w.keyboard.type('Adds a **success** hint to the introduction.');
      await description.getByRole('button', { name: 'Save description' }).click();
      await description.locator('.document-preview strong', { hasText: 'success' }).waitFor();
      await w.getByLabel('Comment', { exact: true }).fill('Please check the new hint.');
      await w.getByRole('button', { name: 'Post comment' }).click();
      await w.getByText('Please check the new hint.').waitFor();
      // The writer asks the reviewer; the request is listed until the review fulfils it.
      await w.getByLabel('Ask to review').selectOption({ label: 'Rey Reviewer' });
      await w.getByRole('button', { name: 'Request review' }).click();
      await w.getByRole('list', { name: 'Asked to review' }).getByText('Rey Reviewer: asked by Wren Writer').waitFor();
      await axe(w);
      // The space asks for an approval before a merge: the Merge button says which rule is not met.
      await api('PATCH', `/spaces/${space}`, { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] } });
      await w.getByRole('button', { name: 'Merge' }).click();
      await w.getByRole('alert').filter({ hasText: 'require_at_least_one_approved_review' }).waitFor();
      expected(/status of 412/); // the refused merge is the point here
      const crUrl = w.url();

      // The reviewer opens the change request's urls.app, replies and approves.
      const number = /\/changes\/(\d+)/.exec(crUrl)[1];
      const crApp = (await api('GET', `/spaces/${space}/change-requests/${number}`)).urls.app;
      const r = reviewer.page;
      await r.goto(crApp);
      await r.getByRole('heading', { level: 1, name: /^#\d+ Edit Introduction/ }).waitFor();
      await r.getByText('Please check the new hint.').waitFor();
      await r
        .getByRole('region', { name: 'Description' })
        .getByText(/Adds a success hint/)
        .waitFor();
      await r.getByLabel('Reply to Wren Writer').fill('Looks right to me.');
      await r.getByRole('button', { name: 'Reply' }).click();
      await r.getByText('Looks right to me.').waitFor();
      await r.getByRole('radio', { name: 'Approve' }).check();
      await r.getByRole('button', { name: 'Submit review' }).click();
      await r.getByText('Rey Reviewer: approved').waitFor();
      await axe(r);
      if (SHOTS) await r.screenshot({ path: 'docs/screenshots/app-change-request.png', fullPage: true });

      // Approved: the writer merges; the published site shows the change within a second.
      await w.reload();
      await w.getByText('Rey Reviewer: approved').waitFor();
      if (await w.getByRole('list', { name: 'Asked to review' }).count()) throw new Error('the fulfilled review request is still listed');
      await w.getByRole('button', { name: 'Merge' }).click();
      await w.getByRole('status').filter({ hasText: 'Merged.' }).waitFor();
      const merged = Date.now();
      for (;;) {
        if ((await (await fetch(visitorPage)).text()).includes('Edited in the browser.')) break;
        if (Date.now() - merged > 1000) throw new Error('the published site did not show the change within a second');
        await new Promise((res) => setTimeout(res, 50));
      }
      await writer.context.close();
      await reviewer.context.close();
    },
  );

  await check('a reader cannot edit, merge or review; a guest sees only the space shared with them; a stranger sees nothing', async () => {
    const reader = await person('reader@example.com', 'Rae Reader', 'read');
    const p = reader.page;
    await p.goto(`${app}/s/${space}/intro`);
    await p.getByText('Edited in the browser.').waitFor();
    // The page looks in the app as on the published site: the hint has the site's own look (document.css).
    const look = (hint) =>
      hint.evaluate((e) => {
        const [box, body, icon] = [e, e.querySelector('.hint-body'), e.querySelector('.hint-icon')].map((x) => getComputedStyle(x));
        return [box.display, box.backgroundColor, box.borderRadius, box.fontSize, body.padding, icon.color].join(' | ');
      });
    const inApp = await look(p.locator('.document-preview .hint-success').first());
    const published = (await api('GET', `/orgs/${organization}/sites`)).items[0];
    const visitor = await reader.context.newPage();
    await visitor.goto(`${origin}/sites/${published.id}/intro`);
    const onSite = await look(visitor.locator('.hint-success', { hasText: 'Edited in the browser.' }));
    await visitor.close();
    if (inApp !== onSite || !inApp.startsWith('grid')) throw new Error(`the hint looks otherwise in the app: ${inApp} / ${onSite}`);
    if (await p.getByRole('button', { name: 'Edit in a change request' }).count()) throw new Error('a reader may open an editor');
    const open = (await api('POST', `/spaces/${space}/change-requests`, { subject: 'Reader view' })).number;
    await p.goto(`${app}/s/${space}/~/changes/${open}/intro`);
    await p.getByRole('heading', { level: 1, name: /Reader view/ }).waitFor();
    await p.getByText('Edited in the browser.').waitFor();
    for (const name of ['Edit page', 'Delete page', 'Move', 'Add page'])
      if (await p.getByRole(name === 'Edit page' ? 'link' : 'button', { name }).count()) throw new Error(`a reader sees ${name}`);
    await p.getByRole('link', { name: 'Overview' }).click();
    await p.getByRole('heading', { name: 'Reviews' }).waitFor();
    await p.getByText('No review yet.').waitFor(); // the reviews are loaded: what follows is not read too early
    for (const name of ['Merge', 'Submit review', 'Archive', 'Edit description'])
      if (await p.getByRole('button', { name }).count()) throw new Error(`a reader sees ${name}`);
    await axe(p);
    await reader.context.close();

    const shared = (await api('POST', `/orgs/${organization}/spaces`, { title: 'Shared notes' })).id;
    const guest = await person('guest@example.com', 'Gus Guest', 'guest');
    await api('POST', `/spaces/${shared}/permissions`, { role: 'read', users: [guest.id] });
    const g = guest.page;
    await g.goto(`${app}/o/${organization}`);
    const tree = g.getByRole('navigation', { name: 'Collections and spaces' });
    await tree.getByRole('link', { name: 'Shared notes' }).waitFor();
    if (await tree.getByRole('link', { name: 'Handbook' }).count()) throw new Error('a guest sees a space not shared with them');
    await g.goto(`${app}/s/${space}`);
    await g
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    expected(/status of 404/); // the refused space is the point here
    await guest.context.close();

    const stranger = await person('stranger@example.com', 'Stan Stranger', null);
    const st = stranger.page;
    await st.goto(`${app}/s/${space}/~/changes/${open}`);
    await st
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    await st.goto(`${app}/o/${organization}`);
    await st
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    expected(/status of 404/);
    await stranger.context.close();
  });

  await check(
    'an admin changes a role, makes an invite link someone joins by, removes a member, makes and deletes a team; axe clean',
    async () => {
      await tab.goto(`${app}/o/${organization}/members`);
      await heading(tab, 'Members and teams');
      await tab.getByLabel('Role of Rae Reader').selectOption('comment');
      await tab.waitForFunction(() => document.querySelector('select[aria-label="Role of Rae Reader"]')?.value === 'comment');
      const members = (await api('GET', `/orgs/${organization}/members?limit=100`)).items;
      if (members.find((m) => m.user.email === 'reader@example.com')?.role !== 'comment') throw new Error('the role did not change');
      await tab.getByLabel('Joins as').selectOption('edit');
      await tab.getByRole('button', { name: 'Make an invite link' }).click();
      const link = (await tab.locator('code.secret', { hasText: '/join/' }).first().textContent()) ?? '';
      const joiner = await person('joiner@example.com', 'Jo Joiner', null);
      await joiner.page.goto(link);
      await joiner.page.getByRole('heading', { level: 1, name: 'Join an organization' }).waitFor();
      await axe(joiner.page);
      await joiner.page.getByRole('button', { name: 'Join' }).click();
      await joiner.page.getByRole('heading', { level: 1, name: 'My organization' }).waitFor();
      await joiner.context.close();
      await tab.reload();
      await tab.getByLabel('Role of Jo Joiner').waitFor();
      if ((await tab.getByLabel('Role of Jo Joiner').inputValue()) !== 'edit') throw new Error('the joiner did not join as edit');
      await tab.getByRole('button', { name: 'Remove Jo Joiner' }).click();
      await tab.waitForFunction(() => !document.querySelector('select[aria-label="Role of Jo Joiner"]'));
      await tab.getByRole('button', { name: 'Delete the edit invite link' }).click();
      await tab.waitForFunction(() => !document.body.textContent.includes('/join/'));
      await tab.getByLabel('New team').fill('Docs team');
      await tab.getByRole('checkbox', { name: 'Wren Writer' }).check();
      await tab.getByRole('button', { name: 'Make the team' }).click();
      await tab.getByRole('button', { name: 'Delete team Docs team' }).waitFor();
      const team = tab.getByRole('list', { name: 'Members of Docs team' });
      await team.getByText('Wren Writer').waitFor();
      await tab.getByLabel('Add to Docs team').selectOption({ label: 'Rey Reviewer' });
      await tab.getByRole('button', { name: 'Add to the team' }).click();
      await team.getByText('Rey Reviewer').waitFor();
      await tab.getByRole('button', { name: 'Take Wren Writer out of Docs team' }).click();
      await tab.waitForFunction(() => !document.querySelector('[aria-label="Members of Docs team"]')?.textContent?.includes('Wren Writer'));
      await axe(tab);
      if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-members.png', fullPage: true });
      await tab.getByRole('button', { name: 'Delete team Docs team' }).click();
      await tab.getByText('No team yet.').waitFor();
    },
  );

  await check('pages added, moved and deleted in a change request; a conflicting merge explained page by page', async () => {
    const number = (await api('POST', `/spaces/${space}/change-requests`, { subject: 'Reshape' })).number;
    await tab.goto(`${app}/s/${space}/~/changes/${number}`);
    await tab.getByRole('heading', { level: 1, name: /Reshape/ }).waitFor();
    await tab.getByLabel('Subject').fill('Reshape the guide');
    await tab.getByRole('button', { name: 'Rename' }).click();
    await tab.getByRole('heading', { level: 1, name: /Reshape the guide$/ }).waitFor();
    await tab.getByLabel('New page title').fill('Troubleshooting');
    await tab.getByRole('button', { name: 'Add page' }).click();
    await tab.getByRole('heading', { name: 'Editing Troubleshooting' }).waitFor();
    await tab.getByRole('link', { name: 'Cancel' }).click();
    await tab.getByRole('heading', { name: 'Troubleshooting', exact: true }).waitFor();
    await tab.getByLabel('Move under').selectOption({ label: 'Set up' });
    await tab.getByRole('button', { name: 'Move', exact: true }).click();
    await tab.waitForURL(/\/setup\/troubleshooting$/);
    const tree = tab.getByRole('navigation', { name: 'Change request' });
    await tree.getByRole('link', { name: 'Set up' }).click();
    await tab.getByRole('button', { name: 'Delete page' }).click();
    await tab.getByRole('button', { name: /^Delete “Set up” and its subpages$/ }).click();
    await tab.getByRole('heading', { name: 'Changes' }).waitFor();
    if (await tree.getByRole('link', { name: 'Set up' }).count()) throw new Error('the deleted page is still in the tree');
    await tab.getByRole('region', { name: 'Changes to Set up' }).getByText('(deleted)').waitFor();
    // Meanwhile the space changed the same page: the merge is refused and the conflict is named.
    const intro = (await api('GET', `/spaces/${space}/content/path/intro`)).id;
    const setup = (await api('GET', `/spaces/${space}/content/path/setup`)).id;
    const other = (await api('POST', `/spaces/${space}/change-requests`, { subject: 'Meanwhile' })).id;
    await api('POST', `/spaces/${space}/change-requests/${other}/content`, {
      changes: [{ operation: 'update_page', page: setup, document: { markdown: '# Set up\n\nInstall it with `npm ci`.\n' } }],
    });
    await api('POST', `/spaces/${space}/change-requests/${other}/reviews`, { status: 'approved' }).catch(() => null);
    await api('PATCH', `/spaces/${space}`, { mergeRules: { type: 'none' } });
    await api('POST', `/spaces/${space}/change-requests/${other}/merge`);
    await tab.reload();
    await tab.getByRole('button', { name: 'Merge' }).click();
    await tab.getByRole('alert').filter({ hasText: '“Set up” was deleted on one side and edited on the other' }).waitFor();
    expected(/status of 409/); // the conflict is the point here
    await axe(tab);
    if (!intro) throw new Error('no intro page');
  });

  await check(
    'every urls.app the API returns opens its screen: organization, collection, space, page, change request, revision, site, OpenAPI spec',
    async () => {
      const spec = await api('POST', `/orgs/${organization}/openapi`, {
        slug: 'petstore',
        source: { text: JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} }) },
      });
      const site = (await api('GET', `/orgs/${organization}/sites`)).items[0];
      const revision = await api('GET', `/spaces/${space}/content`);
      const page = await api('GET', `/spaces/${space}/content/path/intro`);
      const crEdit = (await api('GET', `/spaces/${space}/change-requests?status=merged`)).items.find(
        (c) => c.subject === 'Edit Introduction',
      );
      const collection = (await api('GET', `/orgs/${organization}/collections`)).items[0];
      const targets = [
        [(await api('GET', `/orgs/${organization}`)).urls.app, 'My organization'],
        [collection.urls.app, 'Guides'],
        [(await api('GET', `/spaces/${space}`)).urls.app, 'Handbook'],
        [page.urls.app, 'Handbook'],
        [crEdit.urls.app, /^#\d+ Edit Introduction/],
        [revision.urls.app, /^Handbook as of/],
        [site.urls.app, 'Handbook site'],
        [spec.urls.app, 'petstore'],
      ];
      for (const [url, name] of targets) {
        await tab.goto(url);
        await tab.getByRole('heading', { level: 1, name }).waitFor({ timeout: 5000 });
        await axe(tab);
      }
      // The lists behind them: a space's change requests by status, the organization's sites.
      await tab.goto(`${app}/s/${space}/~/changes?status=merged`);
      await heading(tab, 'Change requests');
      await tab.getByRole('link', { name: /Edit Introduction/ }).waitFor();
      await axe(tab);
      if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-change-requests.png' });
      await tab.goto(`${app}/o/${organization}/sites`);
      await heading(tab, 'Sites');
      await tab.getByRole('link', { name: 'Handbook site' }).waitFor();
      await axe(tab);
    },
  );

  await check(
    'a site: unpublished and published again, a share link made, its title and tint saved and served; the history and Git Sync screens',
    async () => {
      const site = (await api('GET', `/orgs/${organization}/sites`)).items[0];
      await tab.goto(site.urls.app);
      await heading(tab, 'Handbook site');
      await tab.getByRole('button', { name: 'Unpublish', exact: true }).click();
      // Exact names: "Publish" is also in "Unpublish", which stays on screen until the site is read again.
      await tab.getByText('not published', { exact: true }).waitFor();
      await tab.getByRole('button', { name: 'Publish', exact: true }).click();
      await tab.getByRole('link', { name: 'Open the published site' }).waitFor();
      await tab.getByLabel('Share link name').fill('Partners');
      await tab.getByRole('button', { name: 'Make a share link' }).click();
      await tab.getByRole('button', { name: 'Turn off Partners' }).waitFor();
      await tab.getByLabel('Title').fill('The Handbook');
      await tab.getByLabel('Tint the site with a colour').check();
      // A logo uploaded from the computer (a real PNG): stored through an upload URL, its address put in the field.
      await tab.getByLabel(/^Or upload an image/).setInputFiles('docs/screenshots/app-space.png');
      await tab.getByRole('status').filter({ hasText: 'app-space.png uploaded' }).waitFor();
      await tab.getByRole('button', { name: 'Save the look' }).click();
      await tab.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      const custom = await api('GET', `/orgs/${organization}/sites/${site.id}/customization`);
      if (custom.title !== 'The Handbook' || !custom.styling.tint) throw new Error(`customization ${JSON.stringify(custom).slice(0, 200)}`);
      if (!/\/v1\/storage\/files\/[\w-]+\/[\w-]+\/app-space\.png$/.test(custom.header.logo?.light ?? ''))
        throw new Error(`the logo is not the uploaded file: ${JSON.stringify(custom.header.logo)}`);
      // A visitor's browser shows it: the published page's logo image loads.
      const visitor = await tab.context().newPage();
      await visitor.goto(`${origin}/sites/${site.id}/intro`);
      const shown = await visitor
        .locator('.site-title img')
        .first()
        .evaluate(async (img) => {
          await img.decode().catch(() => null);
          return img.naturalWidth;
        });
      await visitor.close();
      if (!shown) throw new Error('the published site does not show the uploaded logo');
      if (!(await (await fetch(`${origin}/sites/${site.id}/intro`)).text()).includes('The Handbook'))
        throw new Error('the site does not show its new title');
      await axe(tab);
      if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-site.png', fullPage: true });
      await tab.goto(`${app}/s/${space}`);
      await tab.getByRole('link', { name: 'History' }).click();
      await heading(tab, 'History');
      if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-history.png' });
      await tab.getByRole('link', { name: 'Merge of a change request' }).first().click();
      await tab.getByRole('heading', { level: 1, name: /^Handbook as of/ }).waitFor();
      await axe(tab);
      await tab.goto(`${app}/s/${space}`);
      await tab.getByRole('link', { name: 'Git Sync' }).click();
      await heading(tab, 'Git Sync');
      await tab.getByText('This space is not connected to a repository.').waitFor();
      await axe(tab);
      // An unconnected space's git/info answers 404 (the official getSpaceGitInfo); the browser logs the fetch.
      expected(/\/~\/git: Failed to load resource: the server responded with a status of 404/);
    },
  );

  await check(
    'Git Sync: a space exported to a loopback repository and a push there imported, the screen following each operation live',
    async () => {
      const synced = (await api('POST', `/orgs/${organization}/spaces`, { title: 'Synced notes' })).id;
      const cr = (await api('POST', `/spaces/${synced}/change-requests`, {})).id;
      await api('POST', `/spaces/${synced}/change-requests/${cr}/content`, {
        changes: [{ operation: 'insert_page', ref: 'notes', slug: 'notes', document: { markdown: '# Notes\n\nWritten in Quire.\n' } }],
      });
      await api('POST', `/spaces/${synced}/change-requests/${cr}/merge`);
      gitServer.seed('notes', null);
      await tab.goto(`${app}/s/${synced}/~/git`);
      await heading(tab, 'Git Sync');
      await tab.getByText('This space is not connected to a repository.').waitFor();
      expected(/\/~\/git: Failed to load resource: the server responded with a status of 404/); // not connected yet
      await tab.getByLabel(/^Repository URL/).fill(gitServer.authUrl('notes'));
      await tab.getByLabel('Branch').fill('main');
      await tab.getByLabel('Commit message (export)').fill('Notes from Quire');
      await tab.getByRole('button', { name: 'Export now' }).click();
      await tab.getByRole('status').filter({ hasText: 'The export is under way.' }).waitFor();
      // What is typed while it runs stays: the screen follows the operation without being made again.
      await tab.getByLabel('Commit message (export)').fill('The next message');
      // No reload: the screen reads the operation again until it ends.
      await tab
        .getByRole('status')
        .filter({ hasText: /^Last export: success/ })
        .waitFor({ timeout: 60_000 });
      if ((await tab.getByLabel('Commit message (export)').inputValue()) !== 'The next message')
        throw new Error('the form was made again while the export ran');
      const files = gitServer.bare('notes', 'ls-tree', '-r', '--name-only', 'main').split('\n');
      const page = files.find((f) => /notes\.md$|README\.md$/.test(f));
      if (!page || !gitServer.bare('notes', 'show', `main:${page}`).includes('Written in Quire.'))
        throw new Error(`the export did not write the page: ${files.join(', ')}`);
      if (gitServer.bare('notes', 'log', '-1', '--format=%s', 'main') !== 'Notes from Quire')
        throw new Error('the commit message is not the one typed');
      // The URL shown has no credentials; they stay sealed for the same repository.
      if (!(await tab.getByText(gitServer.url('notes')).count())) throw new Error('the connection is not shown');
      if ((await tab.locator('body').innerText()).includes(gitServer.authUrl('notes').split('@')[0]))
        throw new Error('the credentials are shown');
      await axe(tab);
      if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-git-sync.png' });

      // A push to the repository, imported from the screen: the page reads as the repository has it.
      gitServer.commit(
        'notes',
        (dir) => writeFileSync(join(dir, page), `${readFileSync(join(dir, page), 'utf8')}\nPushed from Git.\n`),
        'Edit in Git',
      );
      await tab.getByRole('button', { name: 'Import now' }).click();
      await tab.getByRole('status').filter({ hasText: 'The import is under way.' }).waitFor();
      await tab
        .getByRole('status')
        .filter({ hasText: /^Last import: success/ })
        .waitFor({ timeout: 60_000 });
      await tab.goto(`${app}/s/${synced}`);
      await tab.getByText('Pushed from Git.').waitFor();
    },
  );

  await check(
    'an issues cluster: support conversations clustered by the background job, the cluster’s urls.app opens its screen; axe clean',
    async () => {
      const asks = [
        'How do I reset my password? The reset email never arrives.',
        'Password reset email does not arrive, I cannot sign in.',
        'I never get the password reset email.',
      ];
      await api('POST', `/orgs/${organization}/conversations`, {
        conversations: asks.map((body, i) => ({
          id: `ask-${i}`,
          subject: 'Sign-in trouble',
          parts: [{ type: 'message', role: 'user', body }],
        })),
      });
      const deadline = Date.now() + 60_000;
      let cluster;
      while (!cluster) {
        const issues = await api('GET', `/orgs/${organization}/conversations-issues?limit=100`);
        if (issues.items.length >= asks.length)
          cluster = (await api('GET', `/orgs/${organization}/conversations-clusters?limit=100&orderBy=issues`)).items[0];
        else if (Date.now() > deadline) throw new Error('the conversations were not processed within a minute');
        else await new Promise((r) => setTimeout(r, 250));
      }
      await tab.goto(cluster.urls.app);
      await heading(tab, cluster.label);
      await tab.getByText(`${cluster.stats.issues} issues in ${cluster.stats.conversations} conversations`).waitFor();
      await tab.getByRole('list', { name: 'Issues per week, oldest first' }).waitFor();
      // What people reported, listed under it.
      const reported = (await api('GET', `/orgs/${organization}/conversations-issues?cluster=${cluster.id}&limit=50`)).items;
      if (!reported.length) throw new Error('the cluster has no issue');
      const listed = tab.getByRole('list', { name: 'Issues in this cluster' });
      await listed.waitFor();
      for (const { issue } of reported) await listed.getByText(issue.summary, { exact: true }).waitFor();
      if ((await listed.getByRole('listitem').count()) !== reported.length) throw new Error('the cluster lists other issues than the API');
      await axe(tab);
      if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-issues-cluster.png' });
      // An id that is no cluster of this organization: said so, not a blank screen.
      await tab.goto(`${app}/o/${organization}/insights/clusters/nope`);
      await tab.getByRole('alert').filter({ hasText: 'This cluster was not found.' }).waitFor();
    },
  );

  await check('sessions: this one and another listed, the other ended, then sign out; axe clean', async () => {
    await tab.getByRole('link', { name: 'Sessions' }).click();
    await heading(tab, 'Signed-in sessions');
    const rows = tab.getByRole('row');
    await rows.nth(2).waitFor(); // the header, and two sessions (the link's and the password's)
    await axe(tab);
    if (SHOTS) await tab.screenshot({ path: 'docs/screenshots/app-sessions.png' });
    const end = tab.getByRole('button', { name: /^End the session/ });
    if ((await end.count()) !== 1) throw new Error(`${await end.count()} End buttons`);
    await end.click();
    await tab.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    await tab.getByRole('button', { name: 'Sign out', exact: true }).click();
    await heading(tab, 'Sign in to Quire');
    // Signed out: the API no longer knows the cookie.
    const after = await tab.evaluate(async () => (await fetch('/v1/auth/session')).status);
    if (after !== 204) throw new Error(`after sign-out: ${after}`);
  });

  /** A browser context of its own, signed in as the admin with a password (the session cookie the API sets). */
  const signedIn = async (options) => {
    const context = await browser.newContext(options);
    const res = await fetch(`${origin}/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: me.email, password: 'a long enough password' }),
    });
    const [name, value] = res.headers.get('set-cookie').split(';')[0].split('=');
    await context.addCookies([{ name, value, url: `${origin}/v1/` }]);
    return context;
  };

  await check('on a phone: the space reads in one column, nothing overflows sideways; axe clean', async () => {
    const phone = await signedIn({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const p = watch(await phone.newPage());
    await p.goto(`${app}/s/${space}`);
    await heading(p, 'Handbook');
    await p.getByText('Welcome to the handbook.').waitFor();
    const overflow = await p.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
    if (overflow > 1) throw new Error(`the screen overflows by ${overflow}px`);
    // A change request's overview reads on a phone too.
    const merged = (await api('GET', `/spaces/${space}/change-requests?status=merged`)).items[0].number;
    await p.goto(`${app}/s/${space}/~/changes/${merged}`);
    await p.getByRole('heading', { name: 'Changes' }).waitFor();
    const crOverflow = await p.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
    if (crOverflow > 1) throw new Error(`the change request overflows by ${crOverflow}px`);
    await axe(p);
    await p.goto(`${app}/s/${space}`);
    await p.getByText('Welcome to the handbook.').waitFor();
    await axe(p);
    if (SHOTS) await p.screenshot({ path: 'docs/screenshots/app-phone.png', fullPage: true });
    await phone.close();
  });

  await check('in dark mode: the page, its code, a change and the editor read (axe contrast), in the dark palette', async () => {
    const dark = await signedIn({ colorScheme: 'dark' });
    const p = watch(await dark.newPage());
    const background = (selector) =>
      p
        .locator(selector)
        .first()
        .evaluate((e) => getComputedStyle(e).backgroundColor);
    // A change request whose page has code, a hint and a card: the site's blocks in the dark palette.
    const setup = (await api('GET', `/spaces/${space}/content/path/setup`)).id;
    const { id, number } = await api('POST', `/spaces/${space}/change-requests`, { subject: 'In the dark' });
    const markdown =
      '# Set up\n\nInstall it with `npm ci`.\n\n```js\nconst quire = require("quire");\n```\n\n{% hint style="warning" %}\nMind the **version**.\n{% endhint %}\n';
    await api('POST', `/spaces/${space}/change-requests/${id}/content`, {
      changes: [{ operation: 'update_page', page: setup, document: { markdown } }],
    });
    await p.goto(`${app}/s/${space}/~/changes/${number}/setup`);
    await p.locator('.document-preview .hl-keyword').first().waitFor();
    for (const [selector, colour] of [
      ['body', 'rgb(13, 17, 23)'],
      ['.document-preview pre', 'rgb(22, 27, 34)'],
    ])
      if ((await background(selector)) !== colour) throw new Error(`${selector} is not dark: ${await background(selector)}`);
    await axe(p);
    await p.goto(`${app}/s/${space}/~/changes/${number}`);
    await p.locator('ins .hint-warning').first().waitFor();
    await axe(p);
    await p.goto(`${app}/s/${space}/~/changes/${number}/setup?mode=edit`);
    await p.getByRole('region', { name: 'Preview' }).locator('.hint-warning').waitFor();
    await axe(p);
    // The editor's markdown marks (inside its shadow root, where axe does not measure them) read on the dark ground.
    const weakest = await p.locator('.editor').evaluate((host) => {
      const luminance = (rgb) => {
        const [r, g, b] = rgb
          .match(/[\d.]+/g)
          .slice(0, 3)
          .map((v) => {
            const c = Number(v) / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const ground = luminance(getComputedStyle(document.body).backgroundColor);
      const spans = [...host.shadowRoot.querySelectorAll('.cm-line span')];
      if (!spans.length) return { ratio: 0, text: 'no highlighted mark' };
      return spans
        .map((e) => {
          const fg = luminance(getComputedStyle(e).color);
          return { ratio: (Math.max(fg, ground) + 0.05) / (Math.min(fg, ground) + 0.05), text: e.textContent };
        })
        .sort((a, b) => a.ratio - b.ratio)[0];
    });
    if (weakest.ratio < 4.5) throw new Error(`"${weakest.text}" in the editor reads at ${weakest.ratio.toFixed(2)}:1 on the dark ground`);
    if (SHOTS) await p.screenshot({ path: 'docs/screenshots/app-dark.png' });
    await dark.close();
  });

  await check('no screen logged a console error', async () => {
    if (errors.length) throw new Error(`${errors.join('\n')}\n(calls that failed, some on purpose: ${failedCalls.join('; ')})`);
  });
} catch (e) {
  results.failed += 1;
  console.log(`  ✕ setup\n    ${e instanceof Error ? e.message : e}`);
} finally {
  await browser?.close();
  await server?.stop();
  await gitServer?.close();
}

console.log(`browser: ${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed ? 1 : 0);
