// The names the native side accepts and sends, each list the same as the Swift bridge's (the tests
// compare them with its recorded contract), so a name added on one side fails until the other learns it.

/** The tracking modes by name: the modes, and the adaptive mode's presets (`balanced` is `adaptive`). */
export const trackingModeNames = [
  'manual',
  'significant',
  'move',
  'interval',
  'continuous',
  'adaptive',
  'balanced',
  'efficient',
  'responsive',
  'stop-detect',
] as const;

/** A tracking mode's name. */
export type TrackingModeName = (typeof trackingModeNames)[number];

/**
 * Why a flush started: enough records pending, a region event, the device stopping or starting, a
 * visit arrival while still with records waiting, the network back, the app in the foreground,
 * tracking stopped, a scheduled retry, or the app's `flush`.
 */
export const uploadTriggers = [
  'threshold',
  'regionEvent',
  'motionChange',
  'arrival',
  'connectivity',
  'foreground',
  'stopped',
  'retry',
  'manual',
] as const;

/** Why a flush started. */
export type UploadTrigger = (typeof uploadTriggers)[number];

/**
 * What stopped a flush before the queue was empty: no credential (call `setAuth`), a failed request
 * (a retry follows at `retryAt`), an earlier failure's back-off, the store, an endpoint that
 * answered 404/405 (a wrong URL) or 403 (a credential that may not write there), where uploads
 * pause, or a drain (a background task's) that ran out of time, where the next flush goes on.
 */
export const uploadStops = ['signedOut', 'failed', 'backingOff', 'storeError', 'misconfigured', 'outOfTime'] as const;

/** What stopped a flush. */
export type UploadStop = (typeof uploadStops)[number];
