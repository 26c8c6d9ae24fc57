// The worker's workflow bundle entry: every workflow type, exported by name.
export * from './card-enrichment.ts';
export * from './sentence-translation.ts';
export * from './audio.ts';
export * from './housekeeping.ts';
export * from './fsrs-optimisation.ts';
export * from './library-import.ts';
