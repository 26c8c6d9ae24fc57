/** The languages the service supports, as BCP 47 tags. `auto` is only a source language. */
export const SUPPORTED_LANGUAGES = [
  { tag: 'en', name: 'English' },
  { tag: 'ar', name: 'Arabic' },
  { tag: 'de', name: 'German' },
  { tag: 'es', name: 'Spanish' },
  { tag: 'fr', name: 'French' },
  { tag: 'hi', name: 'Hindi' },
  { tag: 'id', name: 'Indonesian' },
  { tag: 'it', name: 'Italian' },
  { tag: 'ja', name: 'Japanese' },
  { tag: 'ko', name: 'Korean' },
  { tag: 'nl', name: 'Dutch' },
  { tag: 'pl', name: 'Polish' },
  { tag: 'pt-BR', name: 'Portuguese (Brazil)' },
  { tag: 'pt-PT', name: 'Portuguese (Portugal)' },
  { tag: 'ru', name: 'Russian' },
  { tag: 'sv', name: 'Swedish' },
  { tag: 'th', name: 'Thai' },
  { tag: 'tr', name: 'Turkish' },
  { tag: 'uk', name: 'Ukrainian' },
  { tag: 'vi', name: 'Vietnamese' },
  { tag: 'zh-Hans', name: 'Chinese (Simplified)' },
  { tag: 'zh-Hant', name: 'Chinese (Traditional)' },
] as const;

export type LanguageTag = (typeof SUPPORTED_LANGUAGES)[number]['tag'];

const byLowerTag = new Map<string, LanguageTag>(SUPPORTED_LANGUAGES.map((l) => [l.tag.toLowerCase(), l.tag]));

/** BCP 47 tags compare case-insensitively; this returns the canonical spelling, or null. */
export function canonicalLanguage(tag: string): LanguageTag | null {
  return byLowerTag.get(tag.trim().toLowerCase()) ?? null;
}

export const languageName = (tag: string) => SUPPORTED_LANGUAGES.find((l) => l.tag === tag)?.name ?? tag;
