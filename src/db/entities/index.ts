import { ApiToken, Session, User } from './account.ts';
import { LedgerEntry, Wallet } from './credits.ts';
import { libraryEntities } from './library.ts';
import { sentencesEntities } from './sentences.ts';
import { pageTranslationEntities } from './page-translation.ts';
import { replayEntities } from './replay.ts';
import { audioEntities } from './audio.ts';


export * from './account.ts';
export * from './credits.ts';
export * from './library.ts';
export * from './sentences.ts';
export * from './page-translation.ts';
export * from './replay.ts';
export * from './audio.ts';


/** Every entity the ORM knows. Each feature area appends its own here. */
export const entities = [User, Session, ApiToken, Wallet, LedgerEntry, ...libraryEntities, ...sentencesEntities, ...pageTranslationEntities, ...replayEntities, ...audioEntities];
