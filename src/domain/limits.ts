/**
 * The bounds and fixed formats of the public API, each written once. The request schemas enforce
 * them, the API reference states them, and the web app, the extension and the CLI import them to
 * check input before they send it and to name them. This module imports nothing, so a client's bundle takes these numbers and
 * no server code. Lengths are Unicode code points, counted after the cleaning each field names.
 */

/**
 * A captured expression, once trimmed and whitespace collapsed. A card's corrected text replaces
 * its text, and a library search longer than any card's text could never match, so both share it.
 */
export const CAPTURE_TEXT_MAX = 280;

/** `limit` of the cursor-paged lists: the library and the credits ledger. */
export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 200;

/** A sentence's `original_text`, once trimmed and whitespace collapsed. */
export const SENTENCE_MAX_CHARS = 1000;
/** `pageSize` of GET /api/sentences. */
export const SENTENCES_PAGE_SIZE_DEFAULT = 20;
export const SENTENCES_MAX_PAGE_SIZE = 100;

/** A draft's prompt (POST /api/work), once trimmed. */
export const DRAFT_PROMPT_MAX = 2000;

/** A key the client chooses so that a retried request is served and charged once: `request_id`, `Idempotency-Key`. */
export const IDEMPOTENCY_KEY_MAX = 128;
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[A-Za-z0-9._:-]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/** One page-translation request (POST /api/immersive-translate); its `request_id` is an idempotency key. */
export const PAGE_TRANSLATION_LIMITS = {
  maxItems: 40,
  /** Unicode code points of item text, summed over the batch. */
  maxTotalCodePoints: 12_000,
  maxIdLength: 256,
} as const;

/** The session sizes a client may ask Replay for. */
export const REPLAY_COUNTS = [10, 20, 50] as const;
/** The longest time a client may report for one Replay item: a day. */
export const REPLAY_DURATION_MAX_MS = 86_400_000;

/** A new password; signing in takes any password up to the maximum. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
/** A personal token's name, once trimmed. */
export const TOKEN_NAME_MAX = 100;
/** Every personal token starts with it, so that secret scanners recognise a leaked one. */
export const TOKEN_PREFIX = 'lcp_';

/** The sentence a capture was met in (`context`), once trimmed and whitespace collapsed. */
export const CONTEXT_MAX = 500;
/** The longest link back to where a context was met (a video at its moment), in characters: longer than any address a browser shows. */
export const SOURCE_URL_MAX = 2_048;
/** The contexts a card keeps: its first and the newest. */
export const CARD_CONTEXTS_MAX = 20;
/** One batch of encounters (POST /api/encounters): a page view's known expressions. */
export const ENCOUNTER_BATCH_MAX = 200;
/** Encounters a user may record per UTC day. */
export const ENCOUNTERS_PER_DAY = 2000;
/** One import (POST /api/library/imports): expressions after the file's own duplicates are dropped, and the file's size. */
export const IMPORT_EXPRESSIONS_MAX = 10_000;
export const IMPORT_FILE_MAX_BYTES = 25_000_000;
/** An Anki package (.apkg, .colpkg): the files its zip may list, and the size its collection may unpack to. */
export const ANKI_PACKAGE_ENTRIES_MAX = 20_000;
export const ANKI_COLLECTION_MAX_BYTES = 200_000_000;
