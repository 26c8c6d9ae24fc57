import { defineManifest } from '@crxjs/vite-plugin';

/** The browsers the extension is built for, from the same source (vite.config.ts picks one by mode). */
export type TargetBrowser = 'chrome' | 'firefox';

/**
 * The extension's manifest (MV3). Host permissions: the service on this machine only; any other
 * service address is asked for at run time (options page), and the content script runs on every
 * page the learner opens, where it only reads selections and, when asked, translates.
 */
const common = {
  manifest_version: 3,
  name: 'Language Capture',
  description: 'Capture English from any page into your library, and read pages bilingually.',
  version: '0.1.0',
  permissions: ['storage', 'contextMenus', 'activeTab'],
  host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
  optional_host_permissions: ['<all_urls>'],
  // One self-contained script (an IIFE, see vite.config.ts) and no stylesheet: nothing of the
  // extension is web-accessible, so no page can fetch or probe a file of it.
  content_scripts: [{ matches: ['<all_urls>'], js: ['src/content/index.ts'], run_at: 'document_idle' as const }],
  options_page: 'src/options/index.html',
  action: { default_popup: 'src/popup/index.html', default_title: 'Language Capture' },
  commands: {
    // Keys Chromium actually assigns (chrome.commands.getAll() shows them; Alt+Shift+C and
    // Alt+Shift+T stay empty, taken by the browser): S for save, L for language.
    'capture-selection': {
      suggested_key: { default: 'Alt+Shift+S', mac: 'MacCtrl+Shift+S' },
      description: 'Capture the selected text to your library',
    },
    'translate-page': {
      suggested_key: { default: 'Alt+Shift+L', mac: 'MacCtrl+Shift+L' },
      description: 'Translate this page, or switch between bilingual and original',
    },
  },
};

/**
 * Firefox: an event page (`background.scripts`; Firefox has no extension service worker), an id of
 * its own for signing, and the data the extension sends, declared for Firefox's consent screen
 * (the text the learner captures or translates, to the learner's own service). 140 is the ESR
 * that first reads `data_collection_permissions`; Firefox for Android reads it from 142.
 */
const firefox = {
  background: { scripts: ['src/background/index.ts'], type: 'module' as const },
  browser_specific_settings: {
    gecko: { id: 'language-capture@lcs.invalid', strict_min_version: '140.0', data_collection_permissions: { required: ['websiteContent' as const] } },
    gecko_android: { strict_min_version: '142.0' },
  },
};

const chrome = { minimum_chrome_version: '120', background: { service_worker: 'src/background/index.ts', type: 'module' as const } };

export const manifestFor = (browser: TargetBrowser) => defineManifest({ ...common, ...(browser === 'firefox' ? firefox : chrome) });
