// The worker's workflow bundle entry: every workflow type, exported by name.
export {};
