/** Issue #5: this area's entities (defineEntity), listed in `replayEntities`. */
export const replayEntities = [];
