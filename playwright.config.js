// Browser end-to-end tests: tests/browser against the built dist/, in Debian's chromium.
// scripts/test builds dist/ first and may pick the port (IDEMLAB_TEST_PORT).
import { defineConfig } from '@playwright/test';

const port = Number(process.env.IDEMLAB_TEST_PORT || 8765);

export default defineConfig({
  testDir: 'tests/browser',
  workers: 2,
  // In CI one retry: a test that fails and then passes is reported as flaky (scripts/test's
  // summary line counts them), not hidden, but one slow moment of a shared machine does not
  // turn the whole run red. Locally, none: a failure shows at once.
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  forbidOnly: Boolean(process.env.CI),
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    browserName: 'chromium',
    headless: true,
    // The browser's language picks the first visit's language (web/src/i18n.js); the tests
    // that do not choose one run as the course's main audience does, in Chinese.
    locale: 'zh-CN',
    // A page's requests that its service worker (dist/sw.js) answers never reach page.route,
    // which many tests use: it is allowed only where a test says so (service-worker.spec).
    serviceWorkers: 'block',
    launchOptions: {
      // Never a downloaded browser: Debian's, with its background traffic off.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        // Chromium's own omnibox popup (chrome://omnibox-popup.top-chrome, two WebUI
        // renderers and ~300 of its own scripts) is started for every new browser context
        // in this headless mode, and on a 2-core machine it took CPU from the page under
        // test while a lesson loaded. A learner's browser starts it once, with its window.
        '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
      ],
    },
  },
  webServer: {
    // The server scripts/serve runs: application/wasm, and the precompressed .br/.gz copies.
    command: `node scripts/lib/static-server.mjs --dir dist --port ${port} --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe', // the server logs nothing but its failures
  },
});
