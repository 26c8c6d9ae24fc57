import { defineManifest } from '@crxjs/vite-plugin';

/**
 * The extension's manifest (MV3). Host permissions: the service on this machine only; any other
 * service address is asked for at run time (options page), and the content script runs on every
 * page the learner opens, where it only reads selections and, when asked, translates.
 */
export default defineManifest({
  manifest_version: 3,
  name: 'Language Capture',
  description: 'Capture English from any page into your library, and read pages bilingually.',
  version: '0.1.0',
  minimum_chrome_version: '120',
  permissions: ['storage', 'contextMenus', 'activeTab'],
  host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
  optional_host_permissions: ['<all_urls>'],
  background: { service_worker: 'src/background/index.ts', type: 'module' },
  content_scripts: [{ matches: ['<all_urls>'], js: ['src/content/index.ts'], css: ['src/content/page.css'], run_at: 'document_idle' }],
  options_page: 'src/options/index.html',
  action: { default_popup: 'src/popup/index.html', default_title: 'Language Capture' },
  commands: {
    'capture-selection': { suggested_key: { default: 'Alt+Shift+C' }, description: 'Capture the selected text to your library' },
    'translate-page': { suggested_key: { default: 'Alt+Shift+T' }, description: 'Translate this page, or switch between bilingual and original' },
  },
});
