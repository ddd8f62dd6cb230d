/**
 * Lanyard's own messages on the cluster's IPC channel (workers ↔ primary) are objects tagged with a
 * `lanyard` field, which tells them apart from each other and from anything else on the channel.
 */
export const isLanyardMessage = (m: unknown, tag: string): m is Record<string, unknown> =>
  typeof m === 'object' && m !== null && (m as { lanyard?: unknown }).lanyard === tag;
