/**
 * The embedded form message in real Chromium: a portal page on http://localhost:<port> frames
 * the sandbox's pages on 127.0.0.1 (cross-site, as in production) and records every message.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { EMBED_MESSAGE_TYPE, type FormTarget, isEmbedMessage } from '@form-embed/protocol';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../../scripts/chromium.mjs';
import { fixtureIds, type Sandbox, startSandbox } from '../src/index.js';
import { mintSession, redeem } from './helpers.js';

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};
const microsoftForm: FormTarget = { kind: 'form', formId: fixtureIds.forms.microsoft };
const coreForm: FormTarget = { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter };

const portalHtml = `<!doctype html><html lang="en"><title>Portal</title>
<script>window.messages = []; addEventListener('message', (e) => messages.push({ origin: e.origin, data: e.data }));</script>
<main><h1>Portal</h1><iframe title="Embedded form" width="600" height="500"></iframe></main>`;

interface Recorded {
  origin: string;
  data: unknown;
}

describe('embedded form message in Chromium', () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let portal: Server;
  let portalUrl: string;
  let page: Page;

  before(async () => {
    sandbox = await startSandbox();
    portal = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(portalHtml);
    });
    await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
    portalUrl = `http://localhost:${(portal.address() as AddressInfo).port}/`;
    browser = await chromium.launch(chromiumLaunchOptions);
  });
  afterEach(async () => {
    await page?.context().close();
    sandbox.control.reset();
  });
  after(async () => {
    await browser?.close();
    portal.closeAllConnections();
    await new Promise((resolve) => portal.close(resolve));
    await sandbox.close();
  });

  /** Opens the portal and frames `src`; resolves with the frame once it has loaded. */
  async function frame(src: string): Promise<Frame> {
    // A context of its own: axe needs one (Browser.newPage's page has none it can use).
    page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(5000);
    await page.goto(portalUrl);
    await page.locator('iframe').evaluate((el, url) => {
      (el as HTMLIFrameElement).src = url;
    }, src);
    const handle = await page.locator('iframe').elementHandle();
    const content = await handle?.contentFrame();
    assert.ok(content);
    await content.waitForLoadState('load');
    return content;
  }

  let markers = 0;
  const isMarker = (data: unknown) => typeof data === 'string' && data.startsWith('settled-');
  const messages = async () =>
    (await page.evaluate(() => (window as unknown as { messages: Recorded[] }).messages)).filter(
      (m) => !isMarker(m.data),
    );
  /**
   * Waits until every message `from` has posted so far has reached the portal: messages from one
   * window arrive in the order posted, so once a marker posted now has arrived, so have they.
   */
  const settle = async (from: Frame) => {
    const marker = `settled-${++markers}`;
    await from.evaluate((m) => window.parent.postMessage(m, '*'), marker);
    await page.waitForFunction(
      (m) => (window as unknown as { messages: Recorded[] }).messages.some((r) => r.data === m),
      marker,
    );
  };

  function assertOnly(recorded: Recorded[], origin: string, state: 'error' | 'expired') {
    assert.equal(recorded.length, 1, JSON.stringify(recorded));
    const [message] = recorded;
    assert.equal(message?.origin, origin);
    assert.deepEqual(message?.data, { type: EMBED_MESSAGE_TYPE, state });
    assert.ok(isEmbedMessage(message?.data), 'exactly two fields, no token');
  }

  test('the framed page works cross-site with default settings: signed in, fill in, submit', async () => {
    const session = await mintSession(sandbox, microsoftForm, adele);
    const form = await frame(session.embedUrl);
    await form.getByRole('heading', { name: 'IT support request' }).waitFor();
    // axe scans the frame with the page: two unnamed <main> landmarks, the portal's and the
    // form page's, are a violation (landmark-unique).
    const { violations } = await new AxeBuilder({ page }).analyze();
    assert.deepEqual(
      violations.map(({ id }) => id),
      [],
    );
    await form.getByText(`Signed in as ${fixtureIds.users.adele}`).waitFor();
    await form.getByLabel('Full name').fill('Adele Vance');
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByRole('heading', { name: 'Submitted' }).waitFor();
    await settle(form);
    assert.deepEqual(await messages(), [], 'a live session posts nothing');
  });

  test('a lapse noticed on reload posts expired to the parent, once per lapse', async () => {
    const form = await frame((await mintSession(sandbox, microsoftForm, adele)).embedUrl);
    await form.getByRole('heading', { name: 'IT support request' }).waitFor();
    sandbox.control.expireSessions();
    await form.evaluate(() => location.reload());
    await form.waitForLoadState('load');
    await form.getByRole('heading', { name: 'Your session has ended' }).waitFor();
    await settle(form);
    assertOnly(await messages(), sandbox.formsOrigin, 'expired');
    await form.evaluate(() => location.reload());
    await form.waitForLoadState('load');
    await form.getByRole('heading', { name: 'Your session has ended' }).waitFor();
    await settle(form);
    assert.equal((await messages()).length, 1, 'a second reload of the same lapse posts nothing');
  });

  test('a lapse noticed on submit posts expired to the parent, once per lapse', async () => {
    const form = await frame((await mintSession(sandbox, microsoftForm, adele)).embedUrl);
    await form.getByRole('button', { name: 'Submit' }).waitFor();
    const sessionUrl = form.url();
    sandbox.control.expireSessions();
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByRole('heading', { name: 'Your session has ended' }).waitFor();
    await settle(form);
    assertOnly(await messages(), sandbox.formsOrigin, 'expired');
    // Submit the same lapsed session again (the form is gone from the page, so post one by hand).
    await form.evaluate((action) => {
      const again = document.createElement('form');
      again.method = 'post';
      again.action = action;
      document.body.append(again);
      again.submit();
    }, `${sessionUrl}/submit`);
    await form.waitForLoadState('load');
    await form.getByRole('heading', { name: 'Your session has ended' }).waitFor();
    await settle(form);
    assert.equal((await messages()).length, 1);
  });

  test('a lapse noticed on a Core form lookup posts expired to the parent, once per lapse', async () => {
    const form = await frame((await mintSession(sandbox, coreForm, adele)).embedUrl);
    await form.getByRole('button', { name: 'Look up' }).click();
    await form.getByText('Lookup complete').waitFor();
    sandbox.control.expireSessions();
    await form.getByRole('button', { name: 'Look up' }).click();
    await form.getByRole('heading', { name: 'Your session has ended' }).waitFor();
    await settle(form);
    assertOnly(await messages(), sandbox.coreFormsOrigin, 'expired');
  });

  test('a lookup that finds a lapse already noticed shows it and posts nothing', async () => {
    const form = await frame((await mintSession(sandbox, coreForm, adele)).embedUrl);
    await form.getByRole('button', { name: 'Look up' }).waitFor();
    sandbox.control.expireSessions();
    // The lapse is noticed first elsewhere (the same session in another tab, say).
    const elsewhere = await fetch(`${form.url()}/lookup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.deepEqual(await elsewhere.json(), { state: 'expired', post: true });
    await form.getByRole('button', { name: 'Look up' }).click();
    await form.getByRole('heading', { name: 'Your session has ended' }).waitFor();
    await settle(form);
    assert.deepEqual(await messages(), [], 'at most once per lapse');
  });

  test('a lookup answered with something other than JSON shows an error instead of "Looking up..."', async () => {
    const form = await frame((await mintSession(sandbox, coreForm, adele)).embedUrl);
    // Point the button at a same-origin path that answers the HTML not-found page.
    await form.locator('#lookup').evaluate((button) => {
      (button as HTMLButtonElement).dataset.action = '/c/nowhere/lookup';
    });
    await form.getByRole('button', { name: 'Look up' }).click();
    await form.getByText('The lookup failed. Try again.').waitFor();
    await settle(form);
    assert.deepEqual(await messages(), []);
  });

  test('a reused handle posts error to the parent', async () => {
    const session = await mintSession(sandbox, microsoftForm, adele);
    await redeem(session.embedUrl);
    const form = await frame(session.embedUrl);
    await form.getByRole('heading', { name: 'We could not sign you in' }).waitFor();
    await settle(form);
    assertOnly(await messages(), sandbox.formsOrigin, 'error');
  });

  test('nothing is posted when the page is not framed (lapse or failed redemption)', async () => {
    page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(5000);
    await page.addInitScript(() => {
      const record: unknown[] = [];
      (window as unknown as { messages: unknown[] }).messages = record;
      addEventListener('message', (e) => record.push({ origin: e.origin, data: e.data }));
    });
    const session = await mintSession(sandbox, microsoftForm, adele);
    const sessionUrl = await redeem(session.embedUrl);
    sandbox.control.expireSessions();
    await page.goto(sessionUrl);
    await page.getByRole('heading', { name: 'Your session has ended' }).waitFor();
    await settle(page.mainFrame());
    assert.deepEqual(await messages(), []);
    await page.goto(session.embedUrl);
    await page.getByRole('heading', { name: 'We could not sign you in' }).waitFor();
    await settle(page.mainFrame());
    assert.deepEqual(await messages(), []);
  });
});
