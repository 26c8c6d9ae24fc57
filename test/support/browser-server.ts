import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium (`chromium.connect` it), or null when no web browser file runs. */
    chromiumEndpoint: string | null;
  }
}

/** Debian's Chromium, as every browser test drives it. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The files that connect to it (useBrowserStack). The extension's keep a Chromium each (harness.ts says why). */
const WEB_BROWSER_FILES = /\/test\/integration\/web\/[^/]+\.test\.ts$/;

/**
 * Global setup: one Chromium for the run's web browser files, launched once (about a second of a
 * loaded core each, and a browser process tree each, when every file launched its own). Each file
 * connects and makes a fresh context per page, so no cookie or storage crosses files; closing its
 * connection closes what it made. Kept on globalThis: Vitest runs this once per project that lists it.
 */
const SHARED = Symbol.for('lcs.test-chromium');
type Shared = { server: Promise<BrowserServer | null>; users: number };
const holder = globalThis as { [SHARED]?: Shared };

export default async function setup(project: TestProject) {
  const needed = project.vitest.state.getPaths().some((file) => WEB_BROWSER_FILES.test(file));
  const shared = (holder[SHARED] ??= {
    server: needed ? chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }) : Promise.resolve(null),
    users: 0,
  });
  shared.users++;
  const server = await shared.server;
  project.provide('chromiumEndpoint', server?.wsEndpoint() ?? null);
  return async () => {
    if (--shared.users > 0) return;
    delete holder[SHARED];
    await server?.close();
  };
}
