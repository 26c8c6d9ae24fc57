import { z } from 'zod';
import { canonicalLanguage, SUPPORTED_LANGUAGES, type LanguageTag } from '../domain/languages.ts';
import { countCodePoints } from '../domain/normalise.ts';

/** A timestamp as the API sends it: ISO 8601 in UTC. */
export const isoDate = z.string().meta({ format: 'date-time' });

/**
 * A string of min..max characters counted as this API counts them, in Unicode code points (as
 * JSON Schema's minLength/maxLength do; zod's own .min/.max count UTF-16 units, so an emoji
 * would count twice).
 */
export function codePointString(min: number, max: number) {
  return z
    .string()
    .refine((text) => countCodePoints(text) >= min, min === 1 ? 'must not be empty' : `at least ${min} characters`)
    .refine((text) => countCodePoints(text) <= max, `at most ${max} characters`)
    .meta({ minLength: min, maxLength: max });
}

const LANGUAGE_TAGS = SUPPORTED_LANGUAGES.map((l) => l.tag) as readonly LanguageTag[] as readonly [LanguageTag, ...LanguageTag[]];

/** Tags compare case-insensitively and surrounding spaces are ignored: any spelling reads as its canonical tag. */
const canonicalSpelling = (value: unknown) => {
  if (typeof value !== 'string') return value;
  return value.trim().toLowerCase() === 'auto' ? 'auto' : (canonicalLanguage(value) ?? value);
};

/** An enum of canonical tags in the document (so generated clients get literal unions), read in any spelling. */
function languageEnum<const T extends readonly [string, ...string[]]>(tags: T, description: string) {
  const unsupported = (input: unknown) => {
    const given = String(input).slice(0, 35);
    const hint = given.trim().toLowerCase() === 'auto' ? '"auto" is only allowed as source_language' : 'see GET /api/languages';
    return `unsupported language "${given}"; ${hint}`;
  };
  const spelling = 'Case-insensitive, surrounding spaces ignored; answers use the canonical spelling listed here.';
  return z.preprocess(canonicalSpelling, z.enum(tags, { error: (issue) => unsupported(issue.input) })).meta({ description: `${description} ${spelling}` });
}

/** A supported language (GET /api/languages). */
export const languageTag = languageEnum(LANGUAGE_TAGS, 'A supported language (GET /api/languages).');

/** A supported language, or `auto` for a source to be detected. */
export const sourceLanguageTag = languageEnum([...LANGUAGE_TAGS, 'auto'] as const, 'A supported language (GET /api/languages), or `auto` to detect it.');

/** A language tag the service answers with (stored canonical): a string in, the enum in the document. */
export const languageTagOutput = z.string().pipe(z.enum(LANGUAGE_TAGS));
