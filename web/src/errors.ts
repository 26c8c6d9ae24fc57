import { CAPTURE_TEXT_MAX, CONTEXT_MAX, DRAFT_PROMPT_MAX, PASSWORD_MIN_LENGTH, SENTENCE_MAX_CHARS, TOKEN_NAME_MAX } from '../../src/domain/limits.ts';
import type { ProblemCode } from '../../src/domain/problems.ts';
import { problemOf, type Problem } from './trpc.ts';

/**
 * Every catalog code as a sentence a learner understands: no HTTP statuses, no provider
 * internals. A new catalog code breaks the type-check here until it has its sentence.
 */
const SENTENCES: Record<ProblemCode, string> = {
  invalid_request: 'Some of what you entered needs another look.',
  unauthenticated: 'Please sign in again.',
  insufficient_credits: 'You are out of credits for this period. Your allowance renews at the start of the next one.',
  read_only_token: 'This token may only read.',
  forbidden: 'This is only possible from a signed-in page.',
  origin_not_allowed: 'This page is not allowed to make that change. Reload it and try again.',
  wrong_password: 'That is not your current password.',
  not_found: 'It is no longer there: it may have been deleted.',
  method_not_allowed: 'The page asked for something the service does not offer. Reload it and try again.',
  conflict: 'That is already being done. Wait a moment and try again.',
  duplicate_sentence: 'That sentence is already in your library.',
  library_full: 'Your library holds as many cards as your plan allows. Delete cards you no longer need to make room.',
  import_cancelled: 'Its import was cancelled before it was prepared. Prepare it again from the library.',
  request_in_progress: 'That is still being worked on. Wait a moment and try again.',
  email_taken: 'An account with this email already exists. Sign in instead.',
  payload_too_large: 'That is too long to send at once. Try a shorter text.',
  unsupported_media_type: 'The page sent something the service does not accept. Reload it and try again.',
  range_not_satisfiable: 'The audio could not be played from there. Try again.',
  request_id_reused: 'That was already sent with different text. Reload the page and try again.',
  import_too_costly: 'This file takes too long or too much memory to read. Split it, or export fewer notes or words at a time.',
  language_setup_required: 'Choose the language for translations and notes first.',
  rate_limited: 'That was a lot at once. Wait a few seconds and try again.',
  audio_quota_exceeded: 'You have made as much new audio as a day allows. Audio you already have still plays.',
  internal_error: 'Something went wrong on our side. Try again in a moment.',
  provider_output_invalid: 'The language model gave an answer we could not use. Try again.',
  privacy_routing_unavailable: 'The language model is not available with privacy protection right now. Try again in a minute.',
  service_unavailable: 'The service is busy or briefly away. Try again in a few seconds.',
};

/** What to do about a field the service refused, keyed by the field's name in the request. */
const FIELD_WORDS: Record<string, string> = {
  email: 'Enter a valid email address.',
  password: `Use at least ${PASSWORD_MIN_LENGTH} characters.`,
  newPassword: `Use at least ${PASSWORD_MIN_LENGTH} characters.`,
  currentPassword: 'Enter your current password.',
  text: `Enter an English expression with at least one letter (at most ${CAPTURE_TEXT_MAX} characters).`,
  name: `Give it a name (at most ${TOKEN_NAME_MAX} characters).`,
  context: `The sentence must contain the expression (at most ${CONTEXT_MAX} characters).`,
  original_text: `Enter a sentence of at most ${SENTENCE_MAX_CHARS.toLocaleString('en')} characters.`,
  prompt: `Say what you mean in at most ${DRAFT_PROMPT_MAX.toLocaleString('en')} characters.`,
  items: 'That text is too long or has too many paragraphs to translate at once; translate it in parts.',
};

export interface Explained {
  /** One sentence for the whole form. */
  message: string;
  /** A sentence per field the service refused, keyed by the field's name. */
  fields: Record<string, string>;
}

/** The sentence for a form's one field: its own words when the service named it, else the form's. */
export function explainField(error: unknown, field: string): string {
  const explained = explain(error);
  return explained.fields[field] ?? explained.message;
}

export function explain(error: unknown, overrides: Partial<Record<ProblemCode, string>> = {}): Explained {
  const problem: Problem = problemOf(error);
  const code = problem.code;
  const fields: Record<string, string> = {};
  for (const issue of (problem as { errors?: { path: string; message: string }[] }).errors ?? []) {
    const field = issue.path.split('.')[0] ?? '';
    fields[field] = FIELD_WORDS[field] ?? SENTENCES.invalid_request;
  }
  return { message: overrides[code] ?? SENTENCES[code] ?? SENTENCES.internal_error, fields };
}

/**
 * Refusals that mean "not now" rather than "not this": the service is away, busy or at fault, or the learner must
 * first sign in again or set their languages. What waits on the device (web/src/offline-sync.ts) stays for a later
 * try; any other refusal is final for that call, and said.
 */
const NOT_NOW: ReadonlySet<ProblemCode> = new Set<ProblemCode>([
  'unauthenticated',
  'origin_not_allowed',
  'language_setup_required',
  'rate_limited',
  'request_in_progress',
]);
export function refusedForNow(error: unknown): boolean {
  const { status, code } = problemOf(error);
  return status === 0 || status >= 500 || NOT_NOW.has(code);
}
