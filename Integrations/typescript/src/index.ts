export { createWhereabouts, optionsJSON } from './api.js';
export type { NativeEventSource, NativeListenerHandle, NativeSend, NativeSide } from './api.js';
export { WhereaboutsError, errorCodes, isWhereaboutsError, toWhereaboutsError } from './errors.js';
export type { WhereaboutsErrorCode } from './errors.js';
export * from './names.js';
export * from './types.js';
