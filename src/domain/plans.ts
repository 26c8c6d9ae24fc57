/** The plans and what each grants a month: no dependencies, so the web page can say it too. */
export type Plan = 'free' | 'paid';

export const monthlyAllowance: Record<Plan, number> = { free: 500, paid: 5000 };

/** The cards a library may hold, by default (LIBRARY_MAX_CARDS_FREE, LIBRARY_MAX_CARDS_PAID): captures and imports past it are refused (409 `library_full`). */
export const libraryMaxCards: Record<Plan, number> = { free: 20_000, paid: 200_000 };

/** The new cards imports may create per hour, by default (IMPORT_CARDS_PER_HOUR_FREE, IMPORT_CARDS_PER_HOUR_PAID): one full import an hour on the free plan. */
export const importCardsPerHour: Record<Plan, number> = { free: 10_000, paid: 50_000 };
