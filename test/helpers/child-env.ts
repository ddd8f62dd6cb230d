/**
 * What a process a test starts gets of the test's environment besides its own settings: the compile cache
 * (test/helpers/test-loader.mjs), so the servers and `lanyard` commands tests spawn compile Lanyard once,
 * not each time. Tests give children only what they need, so the machine's own LANYARD_* never leak in.
 */
export const compileCacheEnv = (): Record<string, string> =>
  (process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {});
