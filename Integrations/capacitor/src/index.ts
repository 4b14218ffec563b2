import { Capacitor, registerPlugin } from '@capacitor/core';
import type { PluginListenerHandle } from '@capacitor/core';
import { WhereaboutsError, createWhereabouts } from '../../typescript/src/index.js';
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

/**
 * Capacitor's rejection when the app has no native plugin of that name (`UNIMPLEMENTED`: the package
 * was installed but `npx cap sync` did not run, or the app was not rebuilt since) as `notConfigured`,
 * as React Native answers an unlinked module; any other rejection as it is.
 */
function unsynced(method: string, error: unknown): unknown {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown };
  if (code !== 'UNIMPLEMENTED') return error;
  return new WhereaboutsError(
    'notConfigured',
    `${method}: the Whereabouts native plugin is not in this app (Capacitor: ${String(message)}); run npx cap sync ios and rebuild the app`,
  );
}

/** Whereabouts in a Capacitor app. On Android every call rejects with `unsupportedPlatform`. */
export const Whereabouts = createWhereabouts(
  Capacitor.getPlatform() === 'android'
    ? { unavailable: 'unsupportedPlatform', reason: 'Whereabouts has no Android implementation yet (see the package README)' }
    : {
        send: async (method, options) => {
          try {
            return await (WhereaboutsNative[method] as (options: unknown) => Promise<never>)(options);
          } catch (error) {
            throw unsynced(method, error);
          }
        },
        events: WhereaboutsNative,
      },
);

export * from '../../typescript/src/index.js';
