/** Named values shared by every instance: generated cookie keys, the client-authentication key, import records. */
export interface Settings {
  /** Returns the stored value, or atomically stores and returns `create()`'s result when none exists. */
  getOrCreateSetting(name: string, create: () => string): Promise<string>;
  getSetting(name: string): Promise<string | undefined>;
  /** Stores (or replaces) a value. */
  putSetting(name: string, value: string): Promise<void>;
  /** Removes a value (nothing when there is none). */
  deleteSetting(name: string): Promise<void>;
}
