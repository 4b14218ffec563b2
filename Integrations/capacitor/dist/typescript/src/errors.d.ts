/**
 * Every code a Whereabouts call can reject with: the native bridge's (`BridgeError.codes` in Swift)
 * and `unsupportedPlatform`, which the JavaScript side answers where no native implementation runs
 * (Android, or a browser for what `navigator.geolocation` cannot do).
 */
export declare const errorCodes: readonly ["unknownMethod", "invalidArguments", "notConfigured", "internal", "permissionDenied", "trackingDisabled", "duplicateRegion", "invalidArgument", "storeFailure", "unsupportedPlatform"];
/** A code a failed call is rejected with. */
export declare type WhereaboutsErrorCode = (typeof errorCodes)[number];
/** What a failed call rejects with: a code to switch on and a message naming the problem and the fix. */
export declare class WhereaboutsError extends Error {
    readonly code: WhereaboutsErrorCode;
    constructor(code: WhereaboutsErrorCode, message: string);
}
/** Whether `error` is a `WhereaboutsError` (or carries one's `code` and `message`). */
export declare function isWhereaboutsError(error: unknown): error is WhereaboutsError;
/**
 * The `WhereaboutsError` for a native rejection: Capacitor and React Native reject with an object
 * carrying the bridge's `code` and `message`; anything else becomes `internal`.
 */
export declare function toWhereaboutsError(error: unknown): WhereaboutsError;
