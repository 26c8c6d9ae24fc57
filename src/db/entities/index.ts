import { ApiToken, Session, User } from './account.ts';
import { LedgerEntry, Wallet } from './credits.ts';

export * from './account.ts';
export * from './credits.ts';

/** Every entity the ORM knows. Each feature area appends its own here. */
export const entities = [User, Session, ApiToken, Wallet, LedgerEntry];
