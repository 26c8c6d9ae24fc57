/** Issue #3: this area's entities (defineEntity), listed in `libraryEntities`. */
export const libraryEntities = [];
