/** Whereabouts in a React Native app. On Android every call rejects with `unsupportedPlatform`. */
export declare const Whereabouts: import("../../typescript/src/types.js").Whereabouts;
export * from '../../typescript/src/index.js';
