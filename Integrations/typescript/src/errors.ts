/**
 * Every code a Whereabouts call can reject with: the native bridge's (`BridgeError.codes` in Swift)
 * and `unsupportedPlatform`, which the JavaScript side answers where no native implementation runs
 * (Android, or a browser for what `navigator.geolocation` cannot do).
 *
 * - `invalidArguments`: an argument is missing, malformed or out of range (whichever side found it);
 *   the message names the method, the field, the problem and the shape to send.
 * - `notConfigured`: the method needs `configure` first (`flush`), or the native module is not
 *   installed or linked (run `pod install`, or `npx cap sync`, and rebuild the app).
 * - `permissionDenied`, `trackingDisabled`, `duplicateRegion`, `storeFailure`,
 *   `locationUnavailable`: the engine refused the call; the message says why and what to do.
 * - `unknownMethod`, `internal`: a mismatch between the JavaScript and the native package, or a bug.
 */
export const errorCodes = [
  'unknownMethod',
  'invalidArguments',
  'notConfigured',
  'internal',
  'permissionDenied',
  'trackingDisabled',
  'duplicateRegion',
  'storeFailure',
  'locationUnavailable',
  'unsupportedPlatform',
] as const;

/** A code a failed call is rejected with. */
export type WhereaboutsErrorCode = (typeof errorCodes)[number];

/** What a failed call rejects with: a code to switch on and a message naming the problem and the fix. */
export class WhereaboutsError extends Error {
  readonly code: WhereaboutsErrorCode;

  constructor(code: WhereaboutsErrorCode, message: string) {
    super(message);
    this.name = 'WhereaboutsError';
    this.code = code;
  }
}

/** Whether `error` is a `WhereaboutsError` (or carries one's `code` and `message`). */
export function isWhereaboutsError(error: unknown): error is WhereaboutsError {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof message === 'string' && typeof code === 'string' && (errorCodes as readonly string[]).includes(code);
}

/**
 * The `WhereaboutsError` for a native rejection: Capacitor and React Native reject with an object
 * carrying the bridge's `code` and `message`; anything else becomes `internal`.
 */
export function toWhereaboutsError(error: unknown): WhereaboutsError {
  if (error instanceof WhereaboutsError) return error;
  if (isWhereaboutsError(error)) return new WhereaboutsError(error.code, error.message);
  const message = error instanceof Error ? error.message : String(error);
  return new WhereaboutsError('internal', `the native module failed without a Whereabouts code: ${message}`);
}
