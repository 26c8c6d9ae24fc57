/** Issue #5: this area's entities (defineEntity), listed in `audioEntities`. */
export const audioEntities = [];
