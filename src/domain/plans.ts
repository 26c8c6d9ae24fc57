/** The plans and what each grants a month: no dependencies, so the web page can say it too. */
export type Plan = 'free' | 'paid';

export const monthlyAllowance: Record<Plan, number> = { free: 500, paid: 5000 };
