// Debian's Chromium and the flags every headless run uses: the end-to-end tests and the web
// benchmark (bench/lib/web.mjs) launch it the same way.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The features Playwright 1.65 turns off in every Chromium it launches (see CHROMIUM_ARGS). */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'SkipListAccountsWithoutGaiaCookies',
];

/**
 * Chromium 156 starts the omnibox's suggestion popup, a WebUI page in a renderer of its own, with
 * every new window, and each browser context is one: about 0.2 s of CPU per context, more than the
 * portal's own page costs (seen in a DevTools trace of a context loading /login; 8 contexts: 4.9 →
 * 2.8 s of Chromium's CPU without it). Headless has no omnibox to show it in.
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // One --disable-features replaces another (the last one counts): Playwright's own list
  // (playwright-core's chromiumSwitches), then ours.
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...DISABLED_FEATURES].join(',')}`,
];
