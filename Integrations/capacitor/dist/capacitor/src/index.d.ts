import type { PluginListenerHandle } from '@capacitor/core';
import type { WhereaboutsEventName, WhereaboutsMethodName, WhereaboutsMethods } from '../../typescript/src/index.js';
/** The plugin as `registerPlugin` exposes it: one method per native method, each answering `{ result }`. */
export declare type WhereaboutsPlugin = {
    [M in WhereaboutsMethodName]: (options: WhereaboutsMethods[M]['options']) => Promise<{
        result: WhereaboutsMethods[M]['result'];
    }>;
} & {
    addListener(eventName: WhereaboutsEventName, listener: (body: any) => void): Promise<PluginListenerHandle>;
};
/** The raw plugin: native on iOS, `navigator.geolocation` in a browser. */
export declare const WhereaboutsNative: WhereaboutsPlugin;
/** Whereabouts in a Capacitor app. On Android every call rejects with `unsupportedPlatform`. */
export declare const Whereabouts: import("../../typescript/src/types.js").Whereabouts;
export * from '../../typescript/src/index.js';
