/**
 * What the content script and the service worker say to each other. The service worker owns the
 * network and the token; the content script owns the page.
 */

/** A capture's result, as the toast shows it. */
export interface CaptureOutcome {
  state: 'saved' | 'already' | 'failed';
  /** One plain sentence for the toast. */
  message: string;
  /** Set for a new card, to follow its preparation. */
  cardId?: string;
  /** The fix lies in the extension's options (a token, languages). */
  openOptions?: boolean;
}

export interface CardProgress {
  status: 'pending' | 'ready' | 'failed' | 'gone';
  translation: string | null;
}

export type { KnownExpression } from './known-match.ts';

import type { KnownExpression } from './known-match.ts';

/** Content script → service worker (chrome.runtime.sendMessage). */
export type Request =
  | { type: 'capture'; text: string }
  | { type: 'card-progress'; cardId: string }
  | { type: 'known-expressions' }
  | { type: 'page-opened' }
  | { type: 'open-options' };

export interface Answers {
  capture: CaptureOutcome;
  'card-progress': CardProgress;
  'known-expressions': KnownExpression[];
  'page-opened': { autoTranslate: boolean };
  'open-options': null;
}

/** Service worker or popup → content script (chrome.tabs.sendMessage). */
export type PageCommand =
  { type: 'capture-selection' } | { type: 'show-capture'; outcome: CaptureOutcome } | { type: 'translate-page' } | { type: 'toggle-translation' };

/** Page translation runs over a port of this name, one per page. */
export const PAGE_TRANSLATION_PORT = 'page-translation';

export interface PageTranslationItem {
  key: string;
  text: string;
}

export type PageTranslationPortMessage =
  | { type: 'translate'; items: PageTranslationItem[] }
  | { type: 'translated'; key: string; text: string }
  | { type: 'stopped'; message: string; openOptions?: boolean }
  | { type: 'waiting'; seconds: number };

/** Sends a request to the service worker, typed by its answer. */
export function ask<R extends Request>(request: R): Promise<Answers[R['type']]> {
  return chrome.runtime.sendMessage(request);
}
