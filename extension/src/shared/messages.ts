/**
 * What the content script and the service worker say to each other. The service worker owns the
 * network and the token; the content script owns the page. A page never takes part: it cannot
 * reach either (no externally_connectable, no web-accessible resources, no window messages read).
 */

/** Where the fix for a failure lies: the extension's options, or a screen of the web app. Never a URL. */
export type Link = 'options' | 'settings' | 'credits';

/** A capture's result, as the toast shows it. */
export interface CaptureOutcome {
  state: 'saved' | 'already' | 'failed';
  /** One plain sentence for the toast. */
  message: string;
  /** Set for a new card, to follow its preparation. */
  cardId?: string;
  link?: Link;
}

export interface CardProgress {
  status: 'pending' | 'ready' | 'failed' | 'gone';
  translation: string | null;
  /** For a failed preparation: the sentence to show, and where its fix lies. */
  failure?: { message: string; link?: Link };
}

export type { KnownExpression } from './known-match.ts';

import type { KnownExpression } from './known-match.ts';

/** Content script → service worker (chrome.runtime.sendMessage). */
export type Request =
  /**
   * `sentence`: the sentence around the selection (or the caption line); the service worker sends it only when the learner turned
   * that on. `seconds`: a caption's moment in its video, sent (as a link to the frame's address at that time) only with "Keep a link
   * back to the moment" on.
   */
  | { type: 'capture'; text: string; sentence?: string; seconds?: number }
  | { type: 'card-progress'; cardId: string }
  | { type: 'known-expressions' }
  /** Known expressions just underlined on this page view (`pageViewId`: random, made by the content script at load). */
  | { type: 'met'; pageViewId: string; cardIds: string[] }
  | { type: 'page-opened' }
  | { type: 'open'; link: Link };

export interface Answers {
  capture: CaptureOutcome;
  'card-progress': CardProgress;
  'known-expressions': KnownExpression[];
  met: null;
  'page-opened': { autoTranslate: boolean };
  open: null;
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

/** Why blocks are waiting: the service answers 5xx, cannot be reached, or asks to slow down. */
export type Trouble = 'unavailable' | 'unreachable' | 'rate-limited';

/** Service worker → content script, over the port. */
export type PageTranslationPortMessage =
  | { type: 'translated'; key: string; text: string }
  /** The target language of this page's translations (its `lang`/`dir`), once known. */
  | { type: 'language'; tag: string }
  /** Sent on a change only: trouble began (blocks wait and are retried), or it is over (null). */
  | { type: 'trouble'; trouble: Trouble | null; retryInSeconds?: number }
  /** Retries ran out for these blocks: they wait for the learner's Retry. */
  | { type: 'gave-up'; keys: string[]; trouble: Trouble }
  /** Nothing more is translated on this page (credits, token, languages), and why. */
  | { type: 'stopped'; message: string; link?: Link };

/** Content script → service worker, over the port. */
export type PageTranslationRequest =
  /** `now`: blocks in view, sent at once rather than gathered into a fuller batch. */
  | { type: 'translate'; items: PageTranslationItem[]; now?: boolean }
  /** Blocks gone from the page (or changed) before their translation came: not to be sent. */
  | { type: 'cancel'; keys: string[] };

/** Sends a request to the service worker, typed by its answer. */
export function ask<R extends Request>(request: R): Promise<Answers[R['type']]> {
  return chrome.runtime.sendMessage(request);
}
