/** Types of src/check-node.mjs (plain JavaScript, so that it runs on an old Node before any build). */
export declare const REQUIRED_NODE: string;
export declare const NODE_HELP: string;
export declare function nodeVersionProblem(version: string): string | undefined;
export declare function exitIfNodeTooOld(version?: string): void;
