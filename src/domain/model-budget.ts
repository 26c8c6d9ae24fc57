/**
 * What one provider call may cost at most. The answer's token limit (`max_tokens`, per kind of
 * work) and the request's size bound the tokens; the configured price bounds the USD. The wallet
 * holds that much before the call and settles to the provider's real cost after it. Pure.
 */
import { ExactDecimal } from './credits.ts';
import { countCodePoints } from './normalise.ts';

/** The longest model name taken (MODEL_NAME, or the one an endpoint lists): a call made before the name is known counts this many bytes for it. */
export const MODEL_NAME_MAX_LENGTH = 256;

/** The default model's (gpt-4o-mini) largest answer: no limit may ask for more. */
export const MODEL_OUTPUT_TOKEN_CAP = 16_384;

/**
 * Answer limits of the fixed-shape kinds of work, from each answer schema's own length bounds
 * with room for languages that take several tokens per character. A legitimate answer fits; a
 * runaway one is cut off (`finish_reason: length`, which the client reports as
 * `provider_output_invalid`) instead of running up an unbounded cost.
 */
export const OUTPUT_TOKEN_LIMITS = {
  /** translation ≤ 1,000 characters, guidance ≤ 600, three examples and three focuses ≤ 300 each; typically ~300 tokens. */
  capture_preparation: 1_500,
  /** english ≤ 8,000 characters (~2,000 tokens of English), at most three short notes, the card ids used. */
  work_draft: 4_096,
} as const;

/** Tokens per source character a translation may need (English into Thai or Hindi takes ~3). */
const TRANSLATION_TOKENS_PER_CODE_POINT = 4;
/** Each translated item's JSON around its text: id, keys, detected language. */
const TRANSLATION_TOKENS_PER_ITEM = 32;
const TRANSLATION_BASE_TOKENS = 256;

/** Answer limit of a translation (a sentence, or one translate_batch call): it scales with the source text. */
export function translationOutputTokens(texts: readonly string[]): number {
  const codePoints = texts.reduce((sum, text) => sum + countCodePoints(text), 0);
  const tokens = TRANSLATION_BASE_TOKENS + TRANSLATION_TOKENS_PER_CODE_POINT * codePoints + TRANSLATION_TOKENS_PER_ITEM * texts.length;
  return Math.min(MODEL_OUTPUT_TOKEN_CAP, tokens);
}

/** Role markers and the like that the provider adds around the messages. */
const MESSAGE_OVERHEAD_TOKENS = 64;

/**
 * Input tokens of a request, at most: byte-level BPE tokenizers (those of the GPT-4o family)
 * never make more tokens than the text has UTF-8 bytes, and the request body holds everything
 * that is tokenised (messages and the answer's JSON schema) and more.
 */
export const inputTokenBound = (requestBodyBytes: number) => requestBodyBytes + MESSAGE_OVERHEAD_TOKENS;

/** USD per million tokens, as decimal text (configuration). */
export interface ModelPrice {
  inputUsdPerMillionTokens: string;
  outputUsdPerMillionTokens: string;
}

/** The most a call with these token bounds can cost, as exact decimal text. */
export function costCeilingUsd(tokens: { input: number; output: number }, price: ModelPrice): string {
  return new ExactDecimal(tokens.input)
    .times(price.inputUsdPerMillionTokens)
    .plus(new ExactDecimal(tokens.output).times(price.outputUsdPerMillionTokens))
    .dividedBy(1_000_000)
    .toFixed();
}
