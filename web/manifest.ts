import type { ManifestOptions } from 'vite-plugin-pwa';

/** The brand green of the favicon, the colour of the installed app's title bar. */
const THEME = '#2f5d50';

/**
 * The installed app: standalone, opening on the library, and a share target, so any app's share
 * sheet can send text to the Capture screen (GET: the shared fields arrive as the address's query,
 * which the page reads and the server never stores).
 */
export const webManifest: Partial<ManifestOptions> = {
  id: '/',
  name: 'Language Capture',
  short_name: 'Capture',
  description: 'Capture English expressions from anything you read, and practise them with Replay.',
  lang: 'en',
  start_url: '/library',
  scope: '/',
  display: 'standalone',
  theme_color: THEME,
  background_color: '#f6f5f1',
  categories: ['education'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  share_target: {
    action: '/capture',
    method: 'GET',
    params: { title: 'title', text: 'text', url: 'url' },
  },
};
