// Issue #3: this workflow. Deterministic, ids in and out; activities via proxyActivities.
export {};
