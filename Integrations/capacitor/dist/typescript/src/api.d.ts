import type { WhereaboutsErrorCode } from './errors.js';
import type { Whereabouts, WhereaboutsEventName, WhereaboutsMethodName, WhereaboutsMethods } from './types.js';
/** Sends one native call; resolves with the bridge's envelope `{ result }`. */
export declare type NativeSend = <M extends WhereaboutsMethodName>(method: M, options: WhereaboutsMethods[M]['options']) => Promise<{
    result: WhereaboutsMethods[M]['result'];
}>;
/** A listener handle as Capacitor (`PluginListenerHandle`) and React Native (`EmitterSubscription`) return it. */
export interface NativeListenerHandle {
    remove(): void | Promise<void>;
}
/** Where pushed events come from: the Capacitor plugin, or a React Native `NativeEventEmitter`. */
export interface NativeEventSource {
    addListener(eventName: WhereaboutsEventName, listener: (body: any) => void): NativeListenerHandle | Promise<NativeListenerHandle>;
}
/** The native side of the API, or why there is none here (`unsupportedPlatform`, `notConfigured`). */
export declare type NativeSide = {
    send: NativeSend;
    events: NativeEventSource;
} | {
    unavailable: WhereaboutsErrorCode;
    reason: string;
};
/**
 * The one Whereabouts API both packages export, over a native side: unwraps each answer's
 * `{ result }` envelope and turns rejections into `WhereaboutsError`s. Where no native side runs,
 * every method rejects with the code and reason given (`unsupportedPlatform` on Android), never with
 * "undefined is not a function". Every rule is native.
 */
export declare function createWhereabouts(native: NativeSide): Whereabouts;
