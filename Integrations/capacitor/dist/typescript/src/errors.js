"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toWhereaboutsError = exports.isWhereaboutsError = exports.WhereaboutsError = exports.errorCodes = void 0;
/**
 * Every code a Whereabouts call can reject with: the native bridge's (`BridgeError.codes` in Swift)
 * and `unsupportedPlatform`, which the JavaScript side answers where no native implementation runs
 * (Android, or a browser for what `navigator.geolocation` cannot do).
 */
exports.errorCodes = [
    'unknownMethod',
    'invalidArguments',
    'notConfigured',
    'internal',
    'permissionDenied',
    'trackingDisabled',
    'duplicateRegion',
    'invalidArgument',
    'storeFailure',
    'unsupportedPlatform',
];
/** What a failed call rejects with: a code to switch on and a message naming the problem and the fix. */
class WhereaboutsError extends Error {
    constructor(code, message) {
        super(message);
        this.name = 'WhereaboutsError';
        this.code = code;
    }
}
exports.WhereaboutsError = WhereaboutsError;
/** Whether `error` is a `WhereaboutsError` (or carries one's `code` and `message`). */
function isWhereaboutsError(error) {
    if (typeof error !== 'object' || error === null)
        return false;
    const { code, message } = error;
    return typeof message === 'string' && typeof code === 'string' && exports.errorCodes.includes(code);
}
exports.isWhereaboutsError = isWhereaboutsError;
/**
 * The `WhereaboutsError` for a native rejection: Capacitor and React Native reject with an object
 * carrying the bridge's `code` and `message`; anything else becomes `internal`.
 */
function toWhereaboutsError(error) {
    if (error instanceof WhereaboutsError)
        return error;
    if (isWhereaboutsError(error))
        return new WhereaboutsError(error.code, error.message);
    const message = error instanceof Error ? error.message : String(error);
    return new WhereaboutsError('internal', `the native module failed without a Whereabouts code: ${message}`);
}
exports.toWhereaboutsError = toWhereaboutsError;
