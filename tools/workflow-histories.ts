import { fileURLToPath } from 'node:url';

/** Where `npm run record:histories` writes the histories that the history-replay test replays. */
export const HISTORIES_DIR = fileURLToPath(new URL('../test/integration/workflows/histories', import.meta.url));

/** In every text the recorder sends as a user, so that a history holding one is caught. */
export const USER_TEXT_MARKER = 'usertext';
