/** Issue #4: this area's entities (defineEntity), listed in `pageTranslationEntities`. */
export const pageTranslationEntities = [];
