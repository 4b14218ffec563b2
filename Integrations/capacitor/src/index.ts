import { Capacitor, registerPlugin } from '@capacitor/core';
import type { PluginListenerHandle } from '@capacitor/core';
import { createWhereabouts } from '../../typescript/src/index.js';
import type { WhereaboutsEventName, WhereaboutsMethodName, WhereaboutsMethods } from '../../typescript/src/index.js';

/** The plugin as `registerPlugin` exposes it: one method per native method, each answering `{ result }`. */
export type WhereaboutsPlugin = {
  [M in WhereaboutsMethodName]: (options: WhereaboutsMethods[M]['options']) => Promise<{ result: WhereaboutsMethods[M]['result'] }>;
} & {
  addListener(eventName: WhereaboutsEventName, listener: (body: any) => void): Promise<PluginListenerHandle>;
};

/** The raw plugin: native on iOS, `navigator.geolocation` in a browser. */
export const WhereaboutsNative = registerPlugin<WhereaboutsPlugin>('Whereabouts', {
  web: () => import('./web.js').then((module) => new module.WhereaboutsWeb()),
});

/** Whereabouts in a Capacitor app. On Android every call rejects with `unsupportedPlatform`. */
export const Whereabouts = createWhereabouts(
  Capacitor.getPlatform() === 'android'
    ? { unavailable: 'unsupportedPlatform', reason: 'Whereabouts has no Android implementation yet (see the package README)' }
    : {
        send: (method, options) => (WhereaboutsNative[method] as (options: unknown) => Promise<never>)(options),
        events: WhereaboutsNative,
      },
);

export * from '../../typescript/src/index.js';
