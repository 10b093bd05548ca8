// Types of source-date.mjs, for the TypeScript tests.
export declare function sourceDateEpoch(): number;
