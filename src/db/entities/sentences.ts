/** Issue #4: this area's entities (defineEntity), listed in `sentencesEntities`. */
export const sentencesEntities = [];
