/**
 * Generated from the service's OpenAPI document (GET /api/openapi.json) by openapi-typescript.
 * Do not edit: run `npm run generate:rest-client`.
 */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** PostgreSQL and Temporal are reachable */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ready";
                            /** @enum {string} */
                            database: "ok";
                            /** @enum {string} */
                            temporal: "ok";
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account and sign in */
        post: operations["account.signup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with email and password (a fresh session) */
        post: operations["account.login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the page session */
        post: operations["account.logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in account */
        get: operations["account.me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/language": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the target and native languages */
        put: operations["account.setLanguages"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/languages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Supported languages (BCP 47 tags) */
        get: operations["account.languages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout-everywhere": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End every page session of the account (and, if asked, revoke its tokens) */
        post: operations["account.logoutEverywhere"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password: ends every other session, and this one gets a fresh id */
        post: operations["account.changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List personal tokens (no secrets) */
        get: operations["account.tokens.list"];
        put?: never;
        /** Create a personal token (shown once) */
        post: operations["account.tokens.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a token */
        delete: operations["account.tokens.revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Balance and current period */
        get: operations["credits.balance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credits/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Ledger entries, newest first */
        get: operations["credits.ledger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List and search the library, newest first */
        get: operations["library.list"];
        put?: never;
        /**
         * Capture an expression (preparation follows in the background)
         * @description A library holds at most the cards its plan allows (by default 20,000 on the free plan, 200,000 on the paid one): a new expression past it is 409 `library_full` with `limit`, `cards` and `room`; an expression already in the library is still answered 200.
         */
        post: operations["library.capture"];
        /**
         * Delete a card and its learning data (`?cardId=` or JSON body `{cardId}`)
         * @description Say which card in the query (`?cardId=`) or in a JSON body `{"cardId": …}`; with both, they must be the same (400 otherwise), and with neither → 400. OpenAPI cannot relate a parameter to the body, so each is optional below.
         */
        delete: operations["library.delete"];
        options?: never;
        head?: never;
        /** Prepare a failed card again */
        patch: operations["library.retryPreparation"];
        trace?: never;
    };
    "/api/library/{cardId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One card with its scheduling */
        get: operations["library.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/{cardId}/sense": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prepare the card again for the sense one of its contexts uses (charged)
         * @description When a sentence you met the expression in uses another sense than the one the card explains ("bank" of a river, not of money), this prepares the card for that sentence: translation, usage and focuses are replaced, and the preparation is charged like a capture’s. The card is pending until it is ready again; its schedule and reviews stay. 409 when the card is not ready, is already prepared for this context, or the context is not one of the card’s.
         */
        post: operations["library.prepareSense"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/{cardId}/prepare-again": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prepare a ready card again with the current language model (charged)
         * @description A card records the model that prepared it (`preparedByModel`). This prepares it again with the deployment’s current model, for the same context if it had one: translation, usage and focuses are replaced, and the preparation is charged like a capture’s. The card is pending until it is ready again; its schedule and reviews stay. 409 when the card is not ready (a failed card is retried instead).
         */
        post: operations["library.prepareAgain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/encounters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record that you met your expressions on a page (opt-in; card ids and times only)
         * @description Opt-in (the extension's "Count when I meet my expressions"): each time a page shows one of your expressions, its card and the time, at most once per card per page view, batched per page view. Never the page's text or address. Encounters are not reviews: they never enter the review log nor its FSRS export. At most 2000 a day (429 with Retry-After until the next UTC day); a card that is not yours → 404 naming it, and nothing of the batch is recorded.
         */
        post: operations["library.recordEncounters"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/{cardId}/correction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Reject a quiet correction: the card keeps your text */
        delete: operations["library.rejectCorrection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/known-expressions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The learner’s card texts, normalised, for marking known expressions on a page
         * @description Send the ETag back in `If-None-Match`: while the library is unchanged the answer is 304 with no body.
         */
        get: operations["library.knownExpressions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the library (csv, tsv, Anki) or the review log
         * @description One export per user at a time (another meanwhile → 429 `rate_limited`, `limit: "export"`), in a rate-limit bucket of its own (RATE_LIMIT_EXPORT_MAX per window); a server busy with other exports answers 503 with Retry-After. Send the ETag back in `If-None-Match`: while the library is unchanged the answer is 304 with no body.
         */
        get: operations["library.export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/preparation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether cards that failed for want of credits are prepared again when the credits renew */
        get: operations["library.preparationSettings"];
        /** Choose whether cards that failed for want of credits are prepared again when the credits renew */
        put: operations["library.setPreparationSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your 20 newest imports */
        get: operations["library.imports.list"];
        put?: never;
        /**
         * Import a list of expressions (saved at once, prepared in the background within your model budget)
         * @description The same list again (or the same `Idempotency-Key`) is the same import: 200 with `Idempotent-Replayed: true`. One import runs at a time per learner (409 names the running one). Follow it with GET /api/library/imports/{importId}. An import's new cards must fit in the library (the plan's size: 409 `library_full` with `limit`, `cards` and `room`) and within the new cards imports may create in an hour on the plan (by default 10,000 free, 50,000 paid: past it 429 `limit: "import_cards"` with Retry-After); expressions already in the library count for neither.
         */
        post: operations["library.imports.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/imports/{importId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An import’s progress: total, saved, reused, prepared, failed by code, waiting for credits, state */
        get: operations["library.imports.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/imports/{importId}/rows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An import’s rows with their cards, in file order (500 a page) */
        get: operations["library.imports.rows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/imports/{importId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel an import: what is saved stays; preparations not started are not made */
        post: operations["library.imports.cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sentences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your sentences, newest first */
        get: operations["sentences.list"];
        put?: never;
        /**
         * Save a sentence and translate it into your native language
         * @description Sync by default (200 with the translation). Async (202, status "pending") only with both `?mode=async` and `X-Service-Async: 1`.
         */
        post: operations["sentences.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/immersive-translate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Translate a batch of page text
         * @description Idempotent per `request_id`: a repeat returns the stored answer with `Idempotent-Replayed: true` and is not charged.
         */
        post: operations["pageTranslation.translate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open or resume a Replay session */
        get: operations["replay.session"];
        put?: never;
        /** Complete a Replay item */
        post: operations["replay.complete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/replay/undo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Undo the last rating of your latest Replay session */
        post: operations["replay.undo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/replay/forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Replay workload: due now, next due time, due per day for 14 days */
        get: operations["replay.forecast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/replay/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A card’s Replay reviews, newest first */
        get: operations["replay.reviews"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/replay/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your Replay settings */
        get: operations["replay.settings"];
        /** Change your Replay settings (desired retention) */
        put: operations["replay.updateSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/replay/optimise": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fit your own FSRS weights now (they apply only if they predict your recent reviews better) */
        post: operations["replay.optimise"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reviews falling due on each of the next 30 days, in your time zone */
        get: operations["progress.forecast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reviews per day with their ratings and time, your streak and true retention */
        get: operations["progress.reviews"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/library": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your library by learning state, and expressions captured per week */
        get: operations["progress.library"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Credits spent per day by kind, and your balance over the current period */
        get: operations["progress.credits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What each desired retention costs and keeps, and your personal optimiser */
        get: operations["progress.retention"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Get or generate audio for a card or sentence */
        post: operations["audio.request"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audio/{audioId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An audio clip you requested */
        get: operations["audio.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audio/{audioId}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audio bytes (HTTP range requests supported) */
        get: operations["audio.content"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/work": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Draft English for what you want to say (the spec’s Output Flow) */
        post: operations["drafts.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/imports/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a file: plain lines, CSV/TSV, Anki notes text or package, Kindle vocab.db, KOReader vocabulary, or our own CSV export
         * @description The file itself as the body (not multipart): text/plain, text/csv, text/tab-separated-values; for a Kindle vocab.db or KOReader's vocabulary_builder.sqlite3, application/vnd.sqlite3; for an Anki package (.apkg, .colpkg), application/zip (any of them also as application/octet-stream). An Anki package's preview names its decks and note types (`anki`): choose with `deck`, `field` and `sentenceField`. Up to 25 MB; a larger Content-Length is refused (413) before the body is read. The file is read in a thread of its own, never holding up the service: one of yours at a time (another meanwhile is 429 with `limit: "import_reads"`), a few per server (past them 503 with Retry-After), each within a memory limit and a deadline (IMPORT_READ_MEMORY_MB, IMPORT_READ_DEADLINE_SECONDS); past either, 422 `import_too_costly` whose `limit` is `memory` (with `limitMb`) or `time` (with `limitSeconds`), and nothing is imported. Reading stops at the first expression past the 10,000 an import takes (400 `too_many_expressions`, naming the line). A file that cannot be read is a 400 whose `reason` says why (empty_file, not_text, not_sqlite, not_kindle, damaged_sqlite, missing_column, too_many_expressions, nothing_to_import; for packages not_zip, too_many_entries, archive_too_large, nested_archive, damaged_archive, not_anki, missing_deck, missing_field, nothing_in_deck; not_koreader); a record that cannot be read is a problem naming its line, and the rest is imported. An import's new cards must fit in the library (the plan's size: 409 `library_full` with `limit`, `cards` and `room`) and within the new cards imports may create in an hour on the plan (by default 10,000 free, 50,000 paid: past it 429 `limit: "import_cards"` with Retry-After); expressions already in the library count for neither.
         */
        post: operations["library.imports.createFromFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/imports/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a file’s import: counts, first lines, what is already in your library (stores nothing)
         * @description The file itself as the body (not multipart): text/plain, text/csv, text/tab-separated-values; for a Kindle vocab.db or KOReader's vocabulary_builder.sqlite3, application/vnd.sqlite3; for an Anki package (.apkg, .colpkg), application/zip (any of them also as application/octet-stream). An Anki package's preview names its decks and note types (`anki`): choose with `deck`, `field` and `sentenceField`. Up to 25 MB; a larger Content-Length is refused (413) before the body is read. The file is read in a thread of its own, never holding up the service: one of yours at a time (another meanwhile is 429 with `limit: "import_reads"`), a few per server (past them 503 with Retry-After), each within a memory limit and a deadline (IMPORT_READ_MEMORY_MB, IMPORT_READ_DEADLINE_SECONDS); past either, 422 `import_too_costly` whose `limit` is `memory` (with `limitMb`) or `time` (with `limitSeconds`), and nothing is imported. Reading stops at the first expression past the 10,000 an import takes (400 `too_many_expressions`, naming the line).
         */
        post: operations["library.imports.preview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description RFC 9457 problem details; `code` is a stable machine word. */
        ProblemInput: {
            type: string;
            title: string;
            status: number;
            detail: string;
            code: string;
            instance?: string;
            errors?: {
                path: string;
                message: string;
            }[];
            /** @description Seconds to wait before asking again; also the Retry-After header. */
            retryAfterSeconds?: number;
        } & {
            [key: string]: unknown;
        };
        SessionsEndedInput: {
            sessionsEnded: number;
            tokensRevoked: number;
        };
        AccountInput: {
            /** Format: uuid */
            userId: string;
            email: string;
            /** @enum {string} */
            plan: "free" | "paid";
            targetLanguage: string | null;
            nativeLanguage: string | null;
        };
        MeInput: {
            /** Format: uuid */
            userId: string;
            email: string;
            /** @enum {string} */
            plan: "free" | "paid";
            targetLanguage: string | null;
            nativeLanguage: string | null;
            /**
             * @description `session` for a signed-in page, else the personal token's scope.
             * @enum {string}
             */
            access: "session" | "read" | "write";
            /** @description Where your text goes: the deployment’s language model. */
            languageModel: {
                /** @description The host that receives the text you capture, translate or ask a draft for. */
                host: string;
                model: string;
                /** @description True when it is the deployment’s own endpoint rather than the router (which requires zero data retention). */
                ownModel: boolean;
                /** @description The same in a sentence, as the settings page shows it. */
                statement: string;
            };
        };
        TokenInput: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            scope: "read" | "write";
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
            lastUsedAt: string | null;
            revokedAt: string | null;
        };
        AudioRequestInput: {
            /** Format: uuid */
            cardId: string;
            sentenceId?: unknown;
        } | {
            /** Format: uuid */
            sentenceId: string;
            cardId?: unknown;
        };
        AudioInput: {
            /** Format: uuid */
            audioId: string;
            /** @enum {string} */
            status: "pending" | "ready" | "failed";
            /** @description Known once ready, e.g. audio/mpeg or audio/wav. */
            contentType: string | null;
            /** @description Where the bytes are served (supports HTTP range requests). */
            url: string;
        };
        CreditsInput: {
            balance: number;
            /** @description Credits held by work in progress (each unit holds its maximum cost until charged). What is available is balance − held; a 402 comes only when nothing is. */
            held: number;
            /** @enum {string} */
            plan: "free" | "paid";
            monthlyAllowance: number;
            /** Format: date-time */
            periodStart: string;
            /** Format: date-time */
            periodEnd: string;
        };
        CardEnrichmentInput: {
            translation: string;
            /** @description Set only for a high-confidence surface fix (spelling, capitalisation, punctuation, agreement). */
            correctedText: string | null;
            correctionNote: string | null;
            usage: {
                /** @enum {string} */
                register: "formal" | "neutral" | "informal" | "slang" | "technical";
                guidance: string;
                examples: string[];
            };
            focuses: {
                /** @enum {string} */
                kind: "meaning" | "grammar" | "collocation" | "idiom" | "pronunciation" | "spelling" | "register";
                note: string;
            }[];
            /** @description The sense the card was prepared for, when it was prepared with a context: its gloss in your native language and the words of the context that decided it. Null or absent without a context. */
            sense?: {
                gloss: string;
                cue: string;
            } | null;
        };
        CardContextInput: {
            /** Format: uuid */
            contextId: string;
            /** @description The sentence, as stored: trimmed, whitespace collapsed, NFC. */
            text: string;
            /** @description Where the expression starts in `text`, in code points. */
            start: number;
            /** @description Where the expression ends in `text` (exclusive), in code points. */
            end: number;
            /** Format: date-time */
            createdAt: string;
            /** @description Where it was met (a video at that second), when the capture kept a link back; else null. */
            sourceUrl: string | null;
        };
        CardInput: {
            /** Format: uuid */
            cardId: string;
            text: string;
            /** @enum {string} */
            enrichmentStatus: "pending" | "ready" | "failed";
            /** Format: date-time */
            createdAt: string;
            /** @description Null until enrichmentStatus is ready. */
            enrichment: components["schemas"]["CardEnrichmentInput"] | null;
            /** @description Only when enrichmentStatus is failed. */
            enrichmentError?: {
                code: string;
                message: string;
            };
            /** @description Only when enrichmentStatus is pending and its preparation waits out an outage of the language model (since its first failed call): it is retried by itself, for up to 30 minutes, and the card stays pending meanwhile. */
            enrichmentWaiting?: {
                /** @constant */
                code: "service_unavailable";
                message: string;
                /** Format: date-time */
                since: string;
            };
            /** @description How many times you met the expression on a page (encounters, POST /api/encounters). */
            metCount: number;
            /** @description When you last met it; null if never. */
            lastMetAt: string | null;
        };
        CardDetailInput: {
            /** Format: uuid */
            cardId: string;
            text: string;
            /** @enum {string} */
            enrichmentStatus: "pending" | "ready" | "failed";
            /** Format: date-time */
            createdAt: string;
            /** @description Null until enrichmentStatus is ready. */
            enrichment: components["schemas"]["CardEnrichmentInput"] | null;
            /** @description Only when enrichmentStatus is failed. */
            enrichmentError?: {
                code: string;
                message: string;
            };
            /** @description Only when enrichmentStatus is pending and its preparation waits out an outage of the language model (since its first failed call): it is retried by itself, for up to 30 minutes, and the card stays pending meanwhile. */
            enrichmentWaiting?: {
                /** @constant */
                code: "service_unavailable";
                message: string;
                /** Format: date-time */
                since: string;
            };
            /** @description How many times you met the expression on a page (encounters, POST /api/encounters). */
            metCount: number;
            /** @description When you last met it; null if never. */
            lastMetAt: string | null;
            scheduling: {
                /** @enum {string} */
                state: "new" | "learning" | "review" | "relearning";
                /** Format: date-time */
                due: string;
                reps: number;
                lapses: number;
                stability: number;
                lastReview: string | null;
            };
            /** @description The sentences you met it in, oldest first: the first one and the newest, 20 at most. */
            contexts: components["schemas"]["CardContextInput"][];
            /** @description The context the card’s preparation chose its sense for; null when none. */
            preparedContextId: string | null;
            /** @description The language model that prepared the card (as the endpoint named it); null unless the card is ready, and for cards prepared before models were recorded. `POST /api/library/{cardId}/prepare-again` prepares it again with the current one. */
            preparedByModel: string | null;
            /** @description When you last met it on a page in the last 30 days, newest first (20 at most; `metCount` and `lastMetAt` count them all). */
            encounters: string[];
        };
        EncounterBatchInput: {
            /**
             * Format: uuid
             * @description A random id your client makes for one page view (a new one for each page load). Never the page’s address: the service is not told where you read.
             */
            pageViewId: string;
            /** @description The known expressions on the page, 1..200; a card listed twice counts once. */
            encounters: {
                /**
                 * Format: uuid
                 * @description The card id (`cardId`).
                 */
                cardId: string;
                /**
                 * Format: date-time
                 * @description When the expression was on the page (within the last 7 days).
                 */
                metAt: string;
            }[];
        };
        EncountersRecordedInput: {
            /** @description Encounters newly recorded. */
            recorded: number;
            /** @description Cards this page view had reported already (a retried batch): not counted twice. */
            alreadyRecorded: number;
        };
        PreparationSettingsInput: {
            /** @description When true, cards whose preparation failed because the credits were used up are prepared again (charged once each) when the next period’s credits are granted; when false (the default) they wait for a retry. */
            prepareOnRenewal: boolean;
        };
        ImportInput: {
            /** Format: uuid */
            importId: string;
            /** @enum {string} */
            state: "saving" | "preparing" | "waiting_for_credits" | "completed" | "cancelled";
            format: string;
            fileName: string | null;
            /** Format: date-time */
            createdAt: string;
            finishedAt: string | null;
            /** @description While waiting for credits: when they renew. */
            resumeAt: string | null;
            counts: {
                /** @description Expressions in the import (after the file’s own duplicates). */
                total: number;
                /** @description New cards saved. */
                saved: number;
                /** @description Expressions already in the library: the existing card is kept. */
                reused: number;
                /** @description New cards whose preparation is done. */
                prepared: number;
                preparing: number;
                /** @description Saved new cards whose preparation has not started yet (paced within your model budget). */
                waiting: number;
                /** @description New cards the import will prepare once credits are back (0 once it has stopped: then they count as failed, insufficient_credits). */
                waitingForCredits: number;
                /** @description New cards whose preparation failed for good, by error code (cards refused for credits only once the import has stopped). */
                failed: {
                    [key: string]: number;
                };
                /** @description Cards deleted since they were imported. */
                removed: number;
            };
            skipped: {
                duplicatesInFile: number;
                tooLong: number;
                invalid: number;
                otherLanguage: number;
            };
            /** @description The first 100 problems, each naming its line. */
            problems: {
                line: number;
                /** @enum {string} */
                code: "too_long" | "no_letter" | "quote_not_closed" | "short_row" | "other_language" | "suspended";
                message: string;
            }[];
            problemsTotal: number;
            /** @description An Anki package imported with its history: the new cards whose schedules were computed from their reviews, and those reviews. */
            history: {
                cards: number;
                reviews: number;
            } | null;
            /** @description What happened, in a sentence, once the import has stopped. */
            outcome: {
                code: string;
                message: string;
            } | null;
        };
        /** @description An Anki package’s decks and note types, to choose from, and what this preview read. */
        AnkiPackageInput: {
            /** @description Every deck (nested as `Parent::Child`) with its notes. */
            decks: {
                name: string;
                notes: number;
            }[];
            noteTypes: {
                name: string;
                fields: string[];
                notes: number;
            }[];
            /** @description The decks read (each with its subdecks). */
            chosenDecks: string[];
            /** @description The field read as the expression; null: each note type’s first. */
            field: string | null;
            sentenceField: string | null;
            /** @description Anki’s reviews of the cards read. */
            reviews: number;
            /** @description Whether those reviews come with the cards (`history=true`): each new card’s schedule computed from them. */
            history: boolean;
        };
        ProgressForecastInput: {
            /**
             * @description A day in your time zone (from 4 am), YYYY-MM-DD.
             * @example 2026-11-26
             */
            today: string;
            /** @description Reviewed cards due now, overdue ones included. */
            dueNow: number;
            /** @description 30 days from today; today counts every card due by its end, overdue ones included. */
            days: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                date: string;
                due: number;
            }[];
        };
        TrueRetentionInput: {
            /** @description Share recalled of reviews of cards scheduled 1–20 days before; null without any. */
            young: number | null;
            /** @description The same for cards scheduled 21 days or more before. */
            mature: number | null;
            all: number | null;
            /** @description Reviews counted: same-day steps are not. */
            reviews: number;
        };
        ProgressReviewsInput: {
            /**
             * @description A day in your time zone (from 4 am), YYYY-MM-DD.
             * @example 2026-11-26
             */
            today: string;
            /** @description Days in a row with a review, ending today (or yesterday while today has none yet). */
            streak: number;
            /** @description The last 365 days, oldest first. */
            days: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                date: string;
                again: number;
                hard: number;
                good: number;
                easy: number;
                /** @description Time spent on the day’s reviews, each counted up to 60 s. */
                durationMs: number;
                /** @description Reviews whose time was measured. */
                timedReviews: number;
            }[];
            retention: {
                last7Days: components["schemas"]["TrueRetentionInput"];
                last30Days: components["schemas"]["TrueRetentionInput"];
                lastYear: components["schemas"]["TrueRetentionInput"];
            };
            /** @description The last 26 weeks. */
            weeklyRetention: {
                /** @description Share recalled of reviews of cards scheduled 1–20 days before; null without any. */
                young: number | null;
                /** @description The same for cards scheduled 21 days or more before. */
                mature: number | null;
                all: number | null;
                /** @description Reviews counted: same-day steps are not. */
                reviews: number;
                /**
                 * @description The Monday the week starts on.
                 * @example 2026-11-26
                 */
                week: string;
            }[];
        };
        ProgressLibraryInput: {
            /**
             * @description A day in your time zone (from 4 am), YYYY-MM-DD.
             * @example 2026-11-26
             */
            today: string;
            states: {
                new: number;
                learning: number;
                review: number;
                relearning: number;
            };
            /** @description The last 26 weeks, Monday first, oldest first. */
            capturesPerWeek: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                week: string;
                captured: number;
            }[];
        };
        ProgressCreditsInput: {
            /**
             * @description A day in your time zone (from 4 am), YYYY-MM-DD.
             * @example 2026-11-26
             */
            today: string;
            /** Format: date-time */
            periodStart: string;
            /** Format: date-time */
            periodEnd: string;
            balance: number;
            /** @description Credits charged on each of the last 30 days, by kind. */
            spentPerDay: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                date: string;
                byKind: {
                    capture_preparation: number;
                    work: number;
                    audio: number;
                    page_translation: number;
                    sentence_translation: number;
                };
            }[];
            /** @description The balance at the end of each day of the current period so far. */
            balanceOverPeriod: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                date: string;
                balance: number;
            }[];
        };
        RetentionChoiceInput: {
            /** @description Your current desired retention. */
            desiredRetention: number;
            /**
             * @description Whose FSRS weights the curve comes from: yours once applied, else the defaults.
             * @enum {string}
             */
            source: "personal" | "default";
            /** @description Expressions captured a day over the last 28 days (at least 1): the rate the curve assumes. */
            newPerDay: number;
            /** @description Each desired retention from 0.80 to 0.97. */
            points: {
                desiredRetention: number;
                /** @description Expected reviews a day, averaged over a year, at your rate of new expressions. */
                reviewsPerDay: number;
                minutesPerDay: number;
                /** @description Expressions you would remember after a year. */
                rememberedAfterYear: number;
                rememberedPerMinute: number;
            }[];
            /** @description The desired retention that keeps the most expressions per minute of review. */
            bestForTime: number;
            /** @description True when that is the lowest value offered: the curve only falls, so the choice is a trade, not an optimum. */
            bestIsLowest: boolean;
            optimiser: {
                /** @description Before the first fit: your reviews made a day or more after the card’s previous one; null once fitted. */
                longTermReviews: number | null;
                /** @description How many of them a fit needs. */
                reviewsNeeded: number;
                lastRun: string | null;
                applied: boolean | null;
                /** @description Reviews the latest fit learned from. */
                trainSize: number | null;
                /** @description Your most recent reviews, held out to judge it. */
                heldOutSize: number | null;
                logLoss: number | null;
                /** @description The default weights’ log loss on the same held-out reviews. */
                defaultLogLoss: number | null;
            };
            /** @description Recall of an expression first answered good, days later: with your weights (null before a fit) and the defaults. */
            recallCurve: {
                days: number;
                personal: number | null;
                defaults: number;
            }[];
        };
        ReplayItemInput: {
            /** Format: uuid */
            itemId: string;
            /** Format: uuid */
            cardId: string;
            /** @description The card’s translation into your native language. */
            prompt: string;
            /** @description The English to reconstruct (the corrected text if preparation corrected it). */
            answer: string;
            /** @description As long as `answer` in code points: `_` hidden, `.` shown. */
            mask: string;
            /** @description You met this expression on a page since its last review (encounters). */
            metSinceReview?: boolean;
            /** @description A prompt from one of your own contexts: a cloze of the expression inside your sentence, which you may practise instead of the translation (then send `prompt: "context"`). Null when the card has no context. */
            context?: {
                /** Format: uuid */
                contextId: string;
                /** @description Your sentence up to the expression. */
                before: string;
                /** @description The expression as your sentence writes it: what to reconstruct with this prompt. */
                answer: string;
                /** @description Your sentence after the expression. */
                after: string;
                /** @description As long as this `answer` in code points, by the same rules as the item’s mask. */
                mask: string;
            } | null;
        };
        ReplaySessionInput: {
            /** @description Null when there is nothing to practise (no session is opened). */
            sessionId: string | null;
            resumed: boolean;
            items: components["schemas"]["ReplayItemInput"][];
        };
        ReplayCompletionInput: {
            /** Format: uuid */
            itemId: string;
            usedHint: boolean;
            autoFilled: boolean;
            unaidedErrors: number;
            /**
             * @description Which prompt you answered: `translation` (the default) or `context` (the item’s context cloze, rated on its mask).
             * @enum {string}
             */
            prompt?: "translation" | "context";
            /** @description How long the learner took over the item, in milliseconds, when the client measured it. A clean answer slower than the fluent time rates good rather than easy. */
            durationMs?: number;
            /**
             * Format: date-time
             * @description When the learner answered, for an answer given offline and sent later (ISO 8601): the review is recorded and the card scheduled as of that time, as if sent then. Not in the future, not before the item's session began, at most 7 days ago (400 otherwise). Sending the same item again with the same time returns the first result; an item already answered at another time (on another device), or a card practised since that time, is 409 `conflict` and counts nothing. Absent: now.
             * @example 2026-11-28T07:30:00Z
             */
            answeredAt?: string;
        };
        ReplayResultInput: {
            /** Format: uuid */
            itemId: string;
            /** Format: uuid */
            cardId: string;
            /** @enum {string} */
            rating: "again" | "hard" | "good" | "easy";
            /** Format: date-time */
            nextReviewAt: string;
            feedback: {
                text: string;
                translation: string;
                usage: {
                    register: string;
                    guidance: string;
                    examples: string[];
                };
            };
        };
        ReplaySettingsInput: {
            /**
             * @description The recall probability at which a card falls due, 0.8–0.97 (default 0.9). Higher means more reviews and fewer forgotten cards.
             * @example 0.9
             */
            desiredRetention: number;
        };
        FittedParametersInput: {
            version: number;
            /** @description Reviews (after each card’s first) the fit learned from and was judged on. */
            logSize: number;
            /** @description Log loss of the fitted weights on your most recent reviews, held out of the fit (lower is better). */
            logLoss: number;
            /** @description RMSE (binned) of the fitted weights on the held-out reviews. */
            rmse: number;
            /** @description The same for the weights in use when the fit ran. */
            baselineLogLoss: number;
            baselineRmse: number;
            /** @description Whether Replay schedules with these weights: only when they beat the ones in use on both measures. */
            applied: boolean;
            /** Format: date-time */
            fittedAt: string;
        };
        /** @description Your own FSRS weights, fitted weekly (or when you ask) once your log is large enough. */
        PersonalScheduleInput: {
            /** @description Your reviews made a day or more after the card’s previous one: what the optimiser learns from. */
            longTermReviews: number;
            /** @description How many of them a fit needs. */
            reviewsNeeded: number;
            /** @description The latest fit of your own FSRS weights; null before the first. */
            latest: components["schemas"]["FittedParametersInput"] | null;
        };
        ReplaySettingsViewInput: {
            /**
             * @description The recall probability at which a card falls due, 0.8–0.97 (default 0.9). Higher means more reviews and fewer forgotten cards.
             * @example 0.9
             */
            desiredRetention: number;
            personalSchedule: components["schemas"]["PersonalScheduleInput"];
        };
        /** @description A fit of your weights is under way; GET /api/replay/settings shows it when done. */
        OptimisationQueuedInput: {
            /** @description Your reviews made a day or more after the card’s previous one: what the optimiser learns from. */
            longTermReviews: number;
            /** @description How many of them a fit needs. */
            reviewsNeeded: number;
            /** @description The latest fit of your own FSRS weights; null before the first. */
            latest: components["schemas"]["FittedParametersInput"] | null;
            /** @constant */
            queued: true;
        };
        ReplayForecastInput: {
            /** @description Reviewed cards due now, overdue ones included. */
            dueNow: number;
            /** @description When the next reviewed card falls due; null when none waits. */
            nextDueAt: string | null;
            /** @description Ready cards never reviewed: a session takes them after the due ones. */
            newCards: number;
            /** @description 14 UTC days from today; today counts every card due by its end, overdue ones included. */
            days: {
                /** @description A UTC day, YYYY-MM-DD. */
                date: string;
                due: number;
            }[];
        };
        CardReviewsInput: {
            /** @description Newest first, at most 50. */
            items: {
                /** @enum {string} */
                rating: "again" | "hard" | "good" | "easy";
                /** Format: date-time */
                reviewedAt: string;
                usedHint: boolean;
                autoFilled: boolean;
                unaidedErrors: number;
                /** @description How long the learner took, when the client measured it. */
                durationMs: number | null;
            }[];
        };
        ReplayUndoInput: {
            /** Format: uuid */
            itemId: string;
        };
        ReplayUndoResultInput: {
            sessionId: string;
            /** @description The item again, open, with the same mask. */
            item: components["schemas"]["ReplayItemInput"];
        };
        SentenceInput: {
            /** Format: uuid */
            id: string;
            original_text: string;
            translation: string | null;
            /** @enum {string} */
            status: "pending" | "translated" | "failed";
            native_language: string;
            /** Format: date-time */
            created_at: string;
            /** @description Only when an async sentence is pending and its translation waits out an outage of the language model: it is retried by itself, for up to 30 minutes. */
            waiting?: {
                /** @constant */
                code: "service_unavailable";
                message: string;
                /** Format: date-time */
                since: string;
            };
        };
        PageTranslationInput: {
            request_id: string;
            target_language: string;
            items: {
                id: string;
                text: string;
                /** @description A BCP 47 tag, `und` when unknown. */
                detected_source_language: string;
            }[];
            credits_charged: number;
        };
        WorkRequestInput: {
            /** @description What you want to say: 1..2000 characters (code points) once trimmed. */
            prompt: string;
            /**
             * @default neutral
             * @enum {string}
             */
            tone?: "neutral" | "formal" | "casual";
            /** @default false */
            useLibrary?: boolean;
        };
        WorkDraftInput: {
            english: string;
            notes: string[];
            usedCardIds: string[];
            creditsCharged: number;
        };
        /** @description RFC 9457 problem details; `code` is a stable machine word. */
        Problem: {
            type: string;
            title: string;
            status: number;
            detail: string;
            code: string;
            instance?: string;
            errors?: {
                path: string;
                message: string;
            }[];
            /** @description Seconds to wait before asking again; also the Retry-After header. */
            retryAfterSeconds?: number;
        } & {
            [key: string]: unknown;
        };
        SessionsEnded: {
            sessionsEnded: number;
            tokensRevoked: number;
        };
        Account: {
            /** Format: uuid */
            userId: string;
            email: string;
            /** @enum {string} */
            plan: "free" | "paid";
            targetLanguage: ("en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant") | null;
            nativeLanguage: ("en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant") | null;
        };
        Me: {
            /** Format: uuid */
            userId: string;
            email: string;
            /** @enum {string} */
            plan: "free" | "paid";
            targetLanguage: ("en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant") | null;
            nativeLanguage: ("en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant") | null;
            /**
             * @description `session` for a signed-in page, else the personal token's scope.
             * @enum {string}
             */
            access: "session" | "read" | "write";
            /** @description Where your text goes: the deployment’s language model. */
            languageModel: {
                /** @description The host that receives the text you capture, translate or ask a draft for. */
                host: string;
                model: string;
                /** @description True when it is the deployment’s own endpoint rather than the router (which requires zero data retention). */
                ownModel: boolean;
                /** @description The same in a sentence, as the settings page shows it. */
                statement: string;
            };
        };
        Token: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            scope: "read" | "write";
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
            lastUsedAt: string | null;
            revokedAt: string | null;
        };
        AudioRequest: {
            /** Format: uuid */
            cardId: string;
            sentenceId?: unknown;
        } | {
            /** Format: uuid */
            sentenceId: string;
            cardId?: unknown;
        };
        Audio: {
            /** Format: uuid */
            audioId: string;
            /** @enum {string} */
            status: "pending" | "ready" | "failed";
            /** @description Known once ready, e.g. audio/mpeg or audio/wav. */
            contentType: string | null;
            /** @description Where the bytes are served (supports HTTP range requests). */
            url: string;
        };
        Credits: {
            balance: number;
            /** @description Credits held by work in progress (each unit holds its maximum cost until charged). What is available is balance − held; a 402 comes only when nothing is. */
            held: number;
            /** @enum {string} */
            plan: "free" | "paid";
            monthlyAllowance: number;
            /** Format: date-time */
            periodStart: string;
            /** Format: date-time */
            periodEnd: string;
        };
        CardEnrichment: {
            translation: string;
            /** @description Set only for a high-confidence surface fix (spelling, capitalisation, punctuation, agreement). */
            correctedText: string | null;
            correctionNote: string | null;
            usage: {
                /** @enum {string} */
                register: "formal" | "neutral" | "informal" | "slang" | "technical";
                guidance: string;
                examples: string[];
            };
            focuses: {
                /** @enum {string} */
                kind: "meaning" | "grammar" | "collocation" | "idiom" | "pronunciation" | "spelling" | "register";
                note: string;
            }[];
            /** @description The sense the card was prepared for, when it was prepared with a context: its gloss in your native language and the words of the context that decided it. Null or absent without a context. */
            sense?: {
                gloss: string;
                cue: string;
            } | null;
        };
        CardContext: {
            /** Format: uuid */
            contextId: string;
            /** @description The sentence, as stored: trimmed, whitespace collapsed, NFC. */
            text: string;
            /** @description Where the expression starts in `text`, in code points. */
            start: number;
            /** @description Where the expression ends in `text` (exclusive), in code points. */
            end: number;
            /** Format: date-time */
            createdAt: string;
            /** @description Where it was met (a video at that second), when the capture kept a link back; else null. */
            sourceUrl: string | null;
        };
        Card: {
            /** Format: uuid */
            cardId: string;
            text: string;
            /** @enum {string} */
            enrichmentStatus: "pending" | "ready" | "failed";
            /** Format: date-time */
            createdAt: string;
            /** @description Null until enrichmentStatus is ready. */
            enrichment: components["schemas"]["CardEnrichment"] | null;
            /** @description Only when enrichmentStatus is failed. */
            enrichmentError?: {
                code: string;
                message: string;
            };
            /** @description Only when enrichmentStatus is pending and its preparation waits out an outage of the language model (since its first failed call): it is retried by itself, for up to 30 minutes, and the card stays pending meanwhile. */
            enrichmentWaiting?: {
                /** @constant */
                code: "service_unavailable";
                message: string;
                /** Format: date-time */
                since: string;
            };
            /** @description How many times you met the expression on a page (encounters, POST /api/encounters). */
            metCount: number;
            /** @description When you last met it; null if never. */
            lastMetAt: string | null;
        };
        CardDetail: {
            /** Format: uuid */
            cardId: string;
            text: string;
            /** @enum {string} */
            enrichmentStatus: "pending" | "ready" | "failed";
            /** Format: date-time */
            createdAt: string;
            /** @description Null until enrichmentStatus is ready. */
            enrichment: components["schemas"]["CardEnrichment"] | null;
            /** @description Only when enrichmentStatus is failed. */
            enrichmentError?: {
                code: string;
                message: string;
            };
            /** @description Only when enrichmentStatus is pending and its preparation waits out an outage of the language model (since its first failed call): it is retried by itself, for up to 30 minutes, and the card stays pending meanwhile. */
            enrichmentWaiting?: {
                /** @constant */
                code: "service_unavailable";
                message: string;
                /** Format: date-time */
                since: string;
            };
            /** @description How many times you met the expression on a page (encounters, POST /api/encounters). */
            metCount: number;
            /** @description When you last met it; null if never. */
            lastMetAt: string | null;
            scheduling: {
                /** @enum {string} */
                state: "new" | "learning" | "review" | "relearning";
                /** Format: date-time */
                due: string;
                reps: number;
                lapses: number;
                stability: number;
                lastReview: string | null;
            };
            /** @description The sentences you met it in, oldest first: the first one and the newest, 20 at most. */
            contexts: components["schemas"]["CardContext"][];
            /** @description The context the card’s preparation chose its sense for; null when none. */
            preparedContextId: string | null;
            /** @description The language model that prepared the card (as the endpoint named it); null unless the card is ready, and for cards prepared before models were recorded. `POST /api/library/{cardId}/prepare-again` prepares it again with the current one. */
            preparedByModel: string | null;
            /** @description When you last met it on a page in the last 30 days, newest first (20 at most; `metCount` and `lastMetAt` count them all). */
            encounters: string[];
        };
        EncounterBatch: {
            /**
             * Format: uuid
             * @description A random id your client makes for one page view (a new one for each page load). Never the page’s address: the service is not told where you read.
             */
            pageViewId: string;
            /** @description The known expressions on the page, 1..200; a card listed twice counts once. */
            encounters: {
                /**
                 * Format: uuid
                 * @description The card id (`cardId`).
                 */
                cardId: string;
                /**
                 * Format: date-time
                 * @description When the expression was on the page (within the last 7 days).
                 */
                metAt: string;
            }[];
        };
        EncountersRecorded: {
            /** @description Encounters newly recorded. */
            recorded: number;
            /** @description Cards this page view had reported already (a retried batch): not counted twice. */
            alreadyRecorded: number;
        };
        PreparationSettings: {
            /** @description When true, cards whose preparation failed because the credits were used up are prepared again (charged once each) when the next period’s credits are granted; when false (the default) they wait for a retry. */
            prepareOnRenewal: boolean;
        };
        Import: {
            /** Format: uuid */
            importId: string;
            /** @enum {string} */
            state: "saving" | "preparing" | "waiting_for_credits" | "completed" | "cancelled";
            format: string;
            fileName: string | null;
            /** Format: date-time */
            createdAt: string;
            finishedAt: string | null;
            /** @description While waiting for credits: when they renew. */
            resumeAt: string | null;
            counts: {
                /** @description Expressions in the import (after the file’s own duplicates). */
                total: number;
                /** @description New cards saved. */
                saved: number;
                /** @description Expressions already in the library: the existing card is kept. */
                reused: number;
                /** @description New cards whose preparation is done. */
                prepared: number;
                preparing: number;
                /** @description Saved new cards whose preparation has not started yet (paced within your model budget). */
                waiting: number;
                /** @description New cards the import will prepare once credits are back (0 once it has stopped: then they count as failed, insufficient_credits). */
                waitingForCredits: number;
                /** @description New cards whose preparation failed for good, by error code (cards refused for credits only once the import has stopped). */
                failed: {
                    [key: string]: number;
                };
                /** @description Cards deleted since they were imported. */
                removed: number;
            };
            skipped: {
                duplicatesInFile: number;
                tooLong: number;
                invalid: number;
                otherLanguage: number;
            };
            /** @description The first 100 problems, each naming its line. */
            problems: {
                line: number;
                /** @enum {string} */
                code: "too_long" | "no_letter" | "quote_not_closed" | "short_row" | "other_language" | "suspended";
                message: string;
            }[];
            problemsTotal: number;
            /** @description An Anki package imported with its history: the new cards whose schedules were computed from their reviews, and those reviews. */
            history: {
                cards: number;
                reviews: number;
            } | null;
            /** @description What happened, in a sentence, once the import has stopped. */
            outcome: {
                code: string;
                message: string;
            } | null;
        };
        /** @description An Anki package’s decks and note types, to choose from, and what this preview read. */
        AnkiPackage: {
            /** @description Every deck (nested as `Parent::Child`) with its notes. */
            decks: {
                name: string;
                notes: number;
            }[];
            noteTypes: {
                name: string;
                fields: string[];
                notes: number;
            }[];
            /** @description The decks read (each with its subdecks). */
            chosenDecks: string[];
            /** @description The field read as the expression; null: each note type’s first. */
            field: string | null;
            sentenceField: string | null;
            /** @description Anki’s reviews of the cards read. */
            reviews: number;
            /** @description Whether those reviews come with the cards (`history=true`): each new card’s schedule computed from them. */
            history: boolean;
        };
        ProgressForecast: {
            /**
             * @description A day in your time zone (from 4 am), YYYY-MM-DD.
             * @example 2026-11-26
             */
            today: string;
            /** @description Reviewed cards due now, overdue ones included. */
            dueNow: number;
            /** @description 30 days from today; today counts every card due by its end, overdue ones included. */
            days: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                date: string;
                due: number;
            }[];
        };
        TrueRetention: {
            /** @description Share recalled of reviews of cards scheduled 1–20 days before; null without any. */
            young: number | null;
            /** @description The same for cards scheduled 21 days or more before. */
            mature: number | null;
            all: number | null;
            /** @description Reviews counted: same-day steps are not. */
            reviews: number;
        };
        ProgressReviews: {
            /**
             * @description A day in your time zone (from 4 am), YYYY-MM-DD.
             * @example 2026-11-26
             */
            today: string;
            /** @description Days in a row with a review, ending today (or yesterday while today has none yet). */
            streak: number;
            /** @description The last 365 days, oldest first. */
            days: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                date: string;
                again: number;
                hard: number;
                good: number;
                easy: number;
                /** @description Time spent on the day’s reviews, each counted up to 60 s. */
                durationMs: number;
                /** @description Reviews whose time was measured. */
                timedReviews: number;
            }[];
            retention: {
                last7Days: components["schemas"]["TrueRetention"];
                last30Days: components["schemas"]["TrueRetention"];
                lastYear: components["schemas"]["TrueRetention"];
            };
            /** @description The last 26 weeks. */
            weeklyRetention: {
                /** @description Share recalled of reviews of cards scheduled 1–20 days before; null without any. */
                young: number | null;
                /** @description The same for cards scheduled 21 days or more before. */
                mature: number | null;
                all: number | null;
                /** @description Reviews counted: same-day steps are not. */
                reviews: number;
                /**
                 * @description The Monday the week starts on.
                 * @example 2026-11-26
                 */
                week: string;
            }[];
        };
        ProgressLibrary: {
            /**
             * @description A day in your time zone (from 4 am), YYYY-MM-DD.
             * @example 2026-11-26
             */
            today: string;
            states: {
                new: number;
                learning: number;
                review: number;
                relearning: number;
            };
            /** @description The last 26 weeks, Monday first, oldest first. */
            capturesPerWeek: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                week: string;
                captured: number;
            }[];
        };
        ProgressCredits: {
            /**
             * @description A day in your time zone (from 4 am), YYYY-MM-DD.
             * @example 2026-11-26
             */
            today: string;
            /** Format: date-time */
            periodStart: string;
            /** Format: date-time */
            periodEnd: string;
            balance: number;
            /** @description Credits charged on each of the last 30 days, by kind. */
            spentPerDay: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                date: string;
                byKind: {
                    capture_preparation: number;
                    work: number;
                    audio: number;
                    page_translation: number;
                    sentence_translation: number;
                };
            }[];
            /** @description The balance at the end of each day of the current period so far. */
            balanceOverPeriod: {
                /**
                 * @description A day in your time zone (from 4 am), YYYY-MM-DD.
                 * @example 2026-11-26
                 */
                date: string;
                balance: number;
            }[];
        };
        RetentionChoice: {
            /** @description Your current desired retention. */
            desiredRetention: number;
            /**
             * @description Whose FSRS weights the curve comes from: yours once applied, else the defaults.
             * @enum {string}
             */
            source: "personal" | "default";
            /** @description Expressions captured a day over the last 28 days (at least 1): the rate the curve assumes. */
            newPerDay: number;
            /** @description Each desired retention from 0.80 to 0.97. */
            points: {
                desiredRetention: number;
                /** @description Expected reviews a day, averaged over a year, at your rate of new expressions. */
                reviewsPerDay: number;
                minutesPerDay: number;
                /** @description Expressions you would remember after a year. */
                rememberedAfterYear: number;
                rememberedPerMinute: number;
            }[];
            /** @description The desired retention that keeps the most expressions per minute of review. */
            bestForTime: number;
            /** @description True when that is the lowest value offered: the curve only falls, so the choice is a trade, not an optimum. */
            bestIsLowest: boolean;
            optimiser: {
                /** @description Before the first fit: your reviews made a day or more after the card’s previous one; null once fitted. */
                longTermReviews: number | null;
                /** @description How many of them a fit needs. */
                reviewsNeeded: number;
                lastRun: string | null;
                applied: boolean | null;
                /** @description Reviews the latest fit learned from. */
                trainSize: number | null;
                /** @description Your most recent reviews, held out to judge it. */
                heldOutSize: number | null;
                logLoss: number | null;
                /** @description The default weights’ log loss on the same held-out reviews. */
                defaultLogLoss: number | null;
            };
            /** @description Recall of an expression first answered good, days later: with your weights (null before a fit) and the defaults. */
            recallCurve: {
                days: number;
                personal: number | null;
                defaults: number;
            }[];
        };
        ReplayItem: {
            /** Format: uuid */
            itemId: string;
            /** Format: uuid */
            cardId: string;
            /** @description The card’s translation into your native language. */
            prompt: string;
            /** @description The English to reconstruct (the corrected text if preparation corrected it). */
            answer: string;
            /** @description As long as `answer` in code points: `_` hidden, `.` shown. */
            mask: string;
            /** @description You met this expression on a page since its last review (encounters). */
            metSinceReview?: boolean;
            /** @description A prompt from one of your own contexts: a cloze of the expression inside your sentence, which you may practise instead of the translation (then send `prompt: "context"`). Null when the card has no context. */
            context?: {
                /** Format: uuid */
                contextId: string;
                /** @description Your sentence up to the expression. */
                before: string;
                /** @description The expression as your sentence writes it: what to reconstruct with this prompt. */
                answer: string;
                /** @description Your sentence after the expression. */
                after: string;
                /** @description As long as this `answer` in code points, by the same rules as the item’s mask. */
                mask: string;
            } | null;
        };
        ReplaySession: {
            /** @description Null when there is nothing to practise (no session is opened). */
            sessionId: string | null;
            resumed: boolean;
            items: components["schemas"]["ReplayItem"][];
        };
        ReplayCompletion: {
            /** Format: uuid */
            itemId: string;
            usedHint: boolean;
            autoFilled: boolean;
            unaidedErrors: number;
            /**
             * @description Which prompt you answered: `translation` (the default) or `context` (the item’s context cloze, rated on its mask).
             * @enum {string}
             */
            prompt?: "translation" | "context";
            /** @description How long the learner took over the item, in milliseconds, when the client measured it. A clean answer slower than the fluent time rates good rather than easy. */
            durationMs?: number;
            /**
             * Format: date-time
             * @description When the learner answered, for an answer given offline and sent later (ISO 8601): the review is recorded and the card scheduled as of that time, as if sent then. Not in the future, not before the item's session began, at most 7 days ago (400 otherwise). Sending the same item again with the same time returns the first result; an item already answered at another time (on another device), or a card practised since that time, is 409 `conflict` and counts nothing. Absent: now.
             * @example 2026-11-28T07:30:00Z
             */
            answeredAt?: string;
        };
        ReplayResult: {
            /** Format: uuid */
            itemId: string;
            /** Format: uuid */
            cardId: string;
            /** @enum {string} */
            rating: "again" | "hard" | "good" | "easy";
            /** Format: date-time */
            nextReviewAt: string;
            feedback: {
                text: string;
                translation: string;
                usage: {
                    register: string;
                    guidance: string;
                    examples: string[];
                };
            };
        };
        ReplaySettings: {
            /**
             * @description The recall probability at which a card falls due, 0.8–0.97 (default 0.9). Higher means more reviews and fewer forgotten cards.
             * @example 0.9
             */
            desiredRetention: number;
        };
        FittedParameters: {
            version: number;
            /** @description Reviews (after each card’s first) the fit learned from and was judged on. */
            logSize: number;
            /** @description Log loss of the fitted weights on your most recent reviews, held out of the fit (lower is better). */
            logLoss: number;
            /** @description RMSE (binned) of the fitted weights on the held-out reviews. */
            rmse: number;
            /** @description The same for the weights in use when the fit ran. */
            baselineLogLoss: number;
            baselineRmse: number;
            /** @description Whether Replay schedules with these weights: only when they beat the ones in use on both measures. */
            applied: boolean;
            /** Format: date-time */
            fittedAt: string;
        };
        /** @description Your own FSRS weights, fitted weekly (or when you ask) once your log is large enough. */
        PersonalSchedule: {
            /** @description Your reviews made a day or more after the card’s previous one: what the optimiser learns from. */
            longTermReviews: number;
            /** @description How many of them a fit needs. */
            reviewsNeeded: number;
            /** @description The latest fit of your own FSRS weights; null before the first. */
            latest: components["schemas"]["FittedParameters"] | null;
        };
        ReplaySettingsView: {
            /**
             * @description The recall probability at which a card falls due, 0.8–0.97 (default 0.9). Higher means more reviews and fewer forgotten cards.
             * @example 0.9
             */
            desiredRetention: number;
            personalSchedule: components["schemas"]["PersonalSchedule"];
        };
        /** @description A fit of your weights is under way; GET /api/replay/settings shows it when done. */
        OptimisationQueued: {
            /** @description Your reviews made a day or more after the card’s previous one: what the optimiser learns from. */
            longTermReviews: number;
            /** @description How many of them a fit needs. */
            reviewsNeeded: number;
            /** @description The latest fit of your own FSRS weights; null before the first. */
            latest: components["schemas"]["FittedParameters"] | null;
            /** @constant */
            queued: true;
        };
        ReplayForecast: {
            /** @description Reviewed cards due now, overdue ones included. */
            dueNow: number;
            /** @description When the next reviewed card falls due; null when none waits. */
            nextDueAt: string | null;
            /** @description Ready cards never reviewed: a session takes them after the due ones. */
            newCards: number;
            /** @description 14 UTC days from today; today counts every card due by its end, overdue ones included. */
            days: {
                /** @description A UTC day, YYYY-MM-DD. */
                date: string;
                due: number;
            }[];
        };
        CardReviews: {
            /** @description Newest first, at most 50. */
            items: {
                /** @enum {string} */
                rating: "again" | "hard" | "good" | "easy";
                /** Format: date-time */
                reviewedAt: string;
                usedHint: boolean;
                autoFilled: boolean;
                unaidedErrors: number;
                /** @description How long the learner took, when the client measured it. */
                durationMs: number | null;
            }[];
        };
        ReplayUndo: {
            /** Format: uuid */
            itemId: string;
        };
        ReplayUndoResult: {
            sessionId: string;
            /** @description The item again, open, with the same mask. */
            item: components["schemas"]["ReplayItem"];
        };
        Sentence: {
            /** Format: uuid */
            id: string;
            original_text: string;
            translation: string | null;
            /** @enum {string} */
            status: "pending" | "translated" | "failed";
            /** @enum {string} */
            native_language: "en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant";
            /** Format: date-time */
            created_at: string;
            /** @description Only when an async sentence is pending and its translation waits out an outage of the language model: it is retried by itself, for up to 30 minutes. */
            waiting?: {
                /** @constant */
                code: "service_unavailable";
                message: string;
                /** Format: date-time */
                since: string;
            };
        };
        PageTranslation: {
            request_id: string;
            /** @enum {string} */
            target_language: "en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant";
            items: {
                id: string;
                text: string;
                /** @description A BCP 47 tag, `und` when unknown. */
                detected_source_language: string;
            }[];
            credits_charged: number;
        };
        WorkRequest: {
            /** @description What you want to say: 1..2000 characters (code points) once trimmed. */
            prompt: string;
            /**
             * @default neutral
             * @enum {string}
             */
            tone: "neutral" | "formal" | "casual";
            /** @default false */
            useLibrary: boolean;
        };
        WorkDraft: {
            english: string;
            notes: string[];
            usedCardIds: string[];
            creditsCharged: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "account.signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description An email address; case-insensitive, surrounding spaces ignored.
                     */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description An email address; case-insensitive, surrounding spaces ignored.
                     */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.setLanguages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description A supported language (GET /api/languages). Case-insensitive, surrounding spaces ignored; answers use the canonical spelling listed here.
                     * @enum {string}
                     */
                    targetLanguage: "en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant";
                    /**
                     * @description A supported language (GET /api/languages). Case-insensitive, surrounding spaces ignored; answers use the canonical spelling listed here.
                     * @enum {string}
                     */
                    nativeLanguage: "en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.languages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        languages: {
                            /** @enum {string} */
                            tag: "en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant";
                            name: string;
                        }[];
                        sourceOnly: "auto"[];
                    };
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.logoutEverywhere": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description Also revoke every personal token (for a suspected leak). Tokens stay valid otherwise.
                     * @default false
                     */
                    revokeTokens?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionsEnded"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.changePassword": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                    /**
                     * @description Also revoke every personal token (for a suspected leak). Tokens stay valid otherwise.
                     * @default false
                     */
                    revokeTokens?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionsEnded"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.tokens.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Token"][];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.tokens.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @enum {string} */
                    scope: "read" | "write";
                    expiresInDays?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        /** @enum {string} */
                        scope: "read" | "write";
                        /** Format: date-time */
                        createdAt: string;
                        expiresAt: string | null;
                        lastUsedAt: string | null;
                        revokedAt: string | null;
                        /** @description Shown once, never again. */
                        token: string;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "account.tokens.revoke": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "credits.balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Credits"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "credits.ledger": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            kind: string;
                            amount: number;
                            balanceAfter: number;
                            reason: string;
                            ref: string | null;
                            /** @description What the entry paid for, in the learner’s own words (at most 80 characters): the card’s expression, the sentence, or the card or sentence an audio clip speaks; null for grants, expiries, page translations and drafts, and once the subject is deleted. */
                            subject: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.list": {
        parameters: {
            query?: {
                /** @description Matches text and translation, case- and accent-insensitive. */
                query?: string;
                /** @description The previous page’s `nextCursor`: opaque, 32 characters of base64url. */
                cursor?: string;
                limit?: number;
                /** @description `newest` (the default): newest first; `met`: the expressions you met most often on pages first (`metCount`), then newest. */
                sort?: "newest" | "met";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Card"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.capture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description A short English expression: trimmed, whitespace runs collapsed to one space, then 1..280 characters (code points) with at least one letter of any script (Unicode \p{L}).
                     * @example break a leg
                     */
                    text: string & (unknown & unknown);
                    /**
                     * @description Optional: the sentence the expression was met in, 1..500 characters (code points, trimmed, whitespace collapsed), containing the expression (compared case-, accent- and spacing-insensitively; 400 otherwise). A new card is prepared for the sense this sentence uses; a known card gets it added to its contexts, free and without preparing again. Stored with the card as one of your own examples; never logged.
                     * @example We had a picnic on the bank of the river.
                     */
                    context?: string | null;
                    /**
                     * @description Optional, only with a `context` (400 otherwise): where the sentence was met, such as a video's address at that second; http or https, at most 2048 characters. Kept with the context (`contexts[].sourceUrl`); sent by the browser extension only when the learner turned on "Keep a link back to the moment".
                     * @example https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s
                     */
                    sourceUrl?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        card: components["schemas"]["Card"];
                        /** @enum {boolean} */
                        reused: true;
                        context?: components["schemas"]["CardContext"];
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        card: components["schemas"]["Card"];
                        context?: components["schemas"]["CardContext"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.delete": {
        parameters: {
            query?: {
                /** @description The card id (`cardId`). */
                cardId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The card id (`cardId`).
                     */
                    cardId?: string;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.retryPreparation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The card id (`cardId`).
                     */
                    cardId: string;
                    /** @enum {string} */
                    action: "refresh_enrichment";
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        card: components["schemas"]["Card"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The card id (`cardId`). */
                cardId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        card: components["schemas"]["CardDetail"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.prepareSense": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The card id (`cardId`). */
                cardId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description One of the card’s contexts (`contexts[].contextId`).
                     */
                    contextId: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        card: components["schemas"]["Card"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.prepareAgain": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The card id (`cardId`). */
                cardId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        card: components["schemas"]["Card"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.recordEncounters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EncounterBatchInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncountersRecorded"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.rejectCorrection": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The card id (`cardId`). */
                cardId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        card: components["schemas"]["CardDetail"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.knownExpressions": {
        parameters: {
            query?: never;
            header?: {
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The same value as the ETag header. */
                        etag: string;
                        /** @description One entry per card, and one more when preparation corrected its text. */
                        expressions: {
                            /** Format: uuid */
                            cardId: string;
                            /** @description The expression normalised as captures are deduplicated (NFC, case-folded, whitespace collapsed, trailing punctuation dropped). */
                            text: string;
                            /** @description The card’s translation; null until its preparation is ready. */
                            translation: string | null;
                        }[];
                    };
                };
            };
            /** @description Not modified: the ETag sent is current. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.export": {
        parameters: {
            query?: {
                /** @description `csv`: One row per card: cardId, text, correctedText, translation, usageGuidance, examples, focuses, created, due, reps, lapses, stability, contexts, metCount, lastMet. A cell a spreadsheet would evaluate (starting with = + - @, a tab, CR or LF, or their full-width forms, after any apostrophes) starts with one added apostrophe (OWASP CSV injection); drop it to read the text back. `tsv`: As csv, tab-separated. `anki`: Anki import text (File → Import): Basic notes, front the translation, back the English with usage and examples; re-importing updates the same notes. `reviews`: The review log for FSRS optimizers: card_id, review_time, review_rating, review_state, review_duration. */
                format?: "csv" | "tsv" | "anki" | "reviews";
            };
            header?: {
                /** @description The ETag of an earlier export: while the library is unchanged the answer is 304, no body. */
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (Content-Disposition: attachment) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                    "text/tab-separated-values": string;
                    "text/plain": string;
                };
            };
            /** @description Not modified: the ETag sent in If-None-Match is current (no body). */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.preparationSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreparationSettings"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.setPreparationSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PreparationSettingsInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreparationSettings"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.imports.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Import"][];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.imports.create": {
        parameters: {
            query?: never;
            header?: {
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The expressions, one per item: a string, or { text, context } with the sentence it was met in. Up to 10,000 once cleaned and the list's own duplicates dropped; a text longer than a card's limit is reported, not imported. */
                    expressions: (string | {
                        text: string;
                        context?: string;
                    })[];
                    /** @description What the list is, for the learner (a file name). */
                    source?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        import: components["schemas"]["Import"];
                        parsed: {
                            expressions: number;
                            skipped: {
                                duplicatesInFile: number;
                                tooLong: number;
                                invalid: number;
                                otherLanguage: number;
                            };
                            problemsTotal: number;
                        };
                        replayed: boolean;
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        import: components["schemas"]["Import"];
                        parsed: {
                            expressions: number;
                            skipped: {
                                duplicatesInFile: number;
                                tooLong: number;
                                invalid: number;
                                otherLanguage: number;
                            };
                            problemsTotal: number;
                        };
                        replayed: boolean;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.imports.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        import: components["schemas"]["Import"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.imports.rows": {
        parameters: {
            query?: {
                cursor?: number;
            };
            header?: never;
            path: {
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            position: number;
                            line: number;
                            text: string;
                            /** @description Where it was met, when the file said and you asked to keep it (a book’s title). */
                            source: string | null;
                            cardId: string | null;
                            outcome: ("new" | "reused") | null;
                            status: ("pending" | "ready" | "failed") | null;
                            errorCode: string | null;
                        }[];
                        nextCursor: number | null;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.imports.cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        import: components["schemas"]["Import"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "sentences.list": {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Sentence"][];
                        page: number;
                        pageSize: number;
                        total: number;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "sentences.create": {
        parameters: {
            query?: {
                /** @description async needs the header `X-Service-Async: 1` too; otherwise sync. */
                mode?: "sync" | "async";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1..1000 characters (Unicode code points), after trimming and collapsing whitespace. */
                    original_text: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sentence: components["schemas"]["Sentence"];
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sentence: components["schemas"]["Sentence"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        type: string;
                        title: string;
                        status: number;
                        detail: string;
                        code: string;
                        instance?: string;
                        errors?: {
                            path: string;
                            message: string;
                        }[];
                        /** @description Seconds to wait before asking again; also the Retry-After header. */
                        retryAfterSeconds?: number;
                        existingId?: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        type: string;
                        title: string;
                        status: number;
                        detail: string;
                        code: string;
                        instance?: string;
                        errors?: {
                            path: string;
                            message: string;
                        }[];
                        /** @description Seconds to wait before asking again; also the Retry-After header. */
                        retryAfterSeconds?: number;
                        /** @description The saved sentence, now with status "failed"; post it again to retry. */
                        sentenceId?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        type: string;
                        title: string;
                        status: number;
                        detail: string;
                        code: string;
                        instance?: string;
                        errors?: {
                            path: string;
                            message: string;
                        }[];
                        /** @description Seconds to wait before asking again; also the Retry-After header. */
                        retryAfterSeconds?: number;
                        /** @description The saved sentence, now with status "failed"; post it again to retry. */
                        sentenceId?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    "pageTranslation.translate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    request_id: string;
                    /**
                     * @description A supported language (GET /api/languages). Case-insensitive, surrounding spaces ignored; answers use the canonical spelling listed here.
                     * @enum {string}
                     */
                    target_language: "en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant";
                    /**
                     * @description A supported language (GET /api/languages), or `auto` to detect it. Case-insensitive, surrounding spaces ignored; answers use the canonical spelling listed here.
                     * @enum {string}
                     */
                    source_language: "en" | "ar" | "de" | "es" | "fr" | "hi" | "id" | "it" | "ja" | "ko" | "nl" | "pl" | "pt-BR" | "pt-PT" | "ru" | "sv" | "th" | "tr" | "uk" | "vi" | "zh-Hans" | "zh-Hant" | "auto";
                    items: {
                        /** @description Unique within the request (a rule JSON Schema cannot state across items). */
                        id: string;
                        /** @description Item texts together are at most 12000 characters (code points) per request; one item alone may use all of it. */
                        text: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PageTranslation"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "replay.session": {
        parameters: {
            query: {
                /** @description How many items a new session has: 10, 20 or 50. */
                count: ("10" | "20" | "50") | (10 | 20 | 50);
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplaySession"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "replay.complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplayCompletionInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayResult"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "replay.undo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplayUndoInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayUndoResult"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "replay.forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayForecast"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "replay.reviews": {
        parameters: {
            query: {
                /** @description The card whose reviews to list. */
                cardId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardReviews"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "replay.settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplaySettingsView"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "replay.updateSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplaySettingsInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplaySettingsView"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "replay.optimise": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OptimisationQueued"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "progress.forecast": {
        parameters: {
            query?: {
                /** @description Your IANA time zone; days start at 4 am in it, as Anki’s do. UTC when absent. */
                timeZone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProgressForecast"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "progress.reviews": {
        parameters: {
            query?: {
                /** @description Your IANA time zone; days start at 4 am in it, as Anki’s do. UTC when absent. */
                timeZone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProgressReviews"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "progress.library": {
        parameters: {
            query?: {
                /** @description Your IANA time zone; days start at 4 am in it, as Anki’s do. UTC when absent. */
                timeZone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProgressLibrary"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "progress.credits": {
        parameters: {
            query?: {
                /** @description Your IANA time zone; days start at 4 am in it, as Anki’s do. UTC when absent. */
                timeZone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProgressCredits"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "progress.retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionChoice"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "audio.request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AudioRequestInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        audio: components["schemas"]["Audio"];
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        audio: components["schemas"]["Audio"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "audio.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                audioId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        audio: components["schemas"]["Audio"];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "audio.content": {
        parameters: {
            query?: never;
            header?: {
                range?: string;
                "if-range"?: string;
            };
            path: {
                audioId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The whole clip */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "audio/*": string;
                };
            };
            /** @description The requested byte range */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "audio/*": string;
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "drafts.create": {
        parameters: {
            query?: never;
            header?: {
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkRequestInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkDraft"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.imports.createFromFile": {
        parameters: {
            query?: {
                /** @description The file’s format; detected when left out (Kindle’s vocab.db by its SQLite header). */
                format?: "lines" | "csv" | "tsv" | "anki" | "kindle" | "apkg" | "koreader";
                /** @description CSV/TSV: the column holding the expressions, a header name or a 1-based number. */
                column?: string;
                /** @description CSV/TSV: whether the first row names the columns. */
                header?: "true" | "false";
                /** @description Anki packages: a deck to read, with its subdecks (repeat the parameter for several); every deck when left out. */
                deck?: string | string[];
                /** @description Anki packages: the field holding the expression; each note type’s first field when left out. */
                field?: string;
                /** @description Anki packages: a field holding the sentence the expression was met in, kept as the card’s context. */
                sentenceField?: string;
                /** @description Anki packages: bring each card’s reviews; its schedule (due date) is computed from them with your FSRS parameters. A card suspended in Anki is left out (a card here is always in practice; said as a `suspended` problem), a buried one is due tomorrow at the earliest. */
                history?: "true" | "false";
                /** @description KOReader: keep each word’s book title with its row (left out unless "true"). */
                bookTitles?: "true" | "false";
                fileName?: string;
            };
            header?: {
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        import: components["schemas"]["Import"];
                        parsed: {
                            expressions: number;
                            skipped: {
                                duplicatesInFile: number;
                                tooLong: number;
                                invalid: number;
                                otherLanguage: number;
                            };
                            problemsTotal: number;
                        };
                        replayed: boolean;
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        import: components["schemas"]["Import"];
                        parsed: {
                            expressions: number;
                            skipped: {
                                duplicatesInFile: number;
                                tooLong: number;
                                invalid: number;
                                otherLanguage: number;
                            };
                            problemsTotal: number;
                        };
                        replayed: boolean;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "library.imports.preview": {
        parameters: {
            query?: {
                /** @description The file’s format; detected when left out (Kindle’s vocab.db by its SQLite header). */
                format?: "lines" | "csv" | "tsv" | "anki" | "kindle" | "apkg" | "koreader";
                /** @description CSV/TSV: the column holding the expressions, a header name or a 1-based number. */
                column?: string;
                /** @description CSV/TSV: whether the first row names the columns. */
                header?: "true" | "false";
                /** @description Anki packages: a deck to read, with its subdecks (repeat the parameter for several); every deck when left out. */
                deck?: string | string[];
                /** @description Anki packages: the field holding the expression; each note type’s first field when left out. */
                field?: string;
                /** @description Anki packages: a field holding the sentence the expression was met in, kept as the card’s context. */
                sentenceField?: string;
                /** @description Anki packages: bring each card’s reviews; its schedule (due date) is computed from them with your FSRS parameters. A card suspended in Anki is left out (a card here is always in practice; said as a `suspended` problem), a buried one is due tomorrow at the earliest. */
                history?: "true" | "false";
                /** @description KOReader: keep each word’s book title with its row (left out unless "true"). */
                bookTitles?: "true" | "false";
                fileName?: string;
            };
            header?: {
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        format: "lines" | "csv" | "tsv" | "anki" | "kindle" | "apkg" | "koreader";
                        anki?: components["schemas"]["AnkiPackage"];
                        expressions: number;
                        /** @description Expressions already in your library: their cards are kept. */
                        inLibrary: number;
                        skipped: {
                            duplicatesInFile: number;
                            tooLong: number;
                            invalid: number;
                            otherLanguage: number;
                        };
                        problems: {
                            line: number;
                            /** @enum {string} */
                            code: "too_long" | "no_letter" | "quote_not_closed" | "short_row" | "other_language" | "suspended";
                            message: string;
                        }[];
                        problemsTotal: number;
                        first: {
                            line: number;
                            text: string;
                            context?: string;
                            source?: string;
                            inLibrary: boolean;
                        }[];
                        /** @description The first lines too long for a card. */
                        longLines: {
                            line: number;
                            text: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
