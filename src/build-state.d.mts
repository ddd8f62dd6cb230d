/** Types of src/build-state.mjs (plain JavaScript, so that it runs before any build). */
export declare function buildNeeded(root?: string): string | undefined;
