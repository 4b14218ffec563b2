import { WhereaboutsError, toWhereaboutsError } from './errors.js';
import type { WhereaboutsErrorCode } from './errors.js';
import type {
  NoOptions,
  Whereabouts,
  WhereaboutsEventName,
  WhereaboutsMethodName,
  WhereaboutsMethods,
} from './types.js';

/** Sends one native call; resolves with the bridge's envelope `{ result }`. */
export type NativeSend = <M extends WhereaboutsMethodName>(
  method: M,
  options: WhereaboutsMethods[M]['options'],
) => Promise<{ result: WhereaboutsMethods[M]['result'] }>;

/** A listener handle as Capacitor (`PluginListenerHandle`) and React Native (`EmitterSubscription`) return it. */
export interface NativeListenerHandle {
  remove(): void | Promise<void>;
}

/** Where pushed events come from: the Capacitor plugin, or a React Native `NativeEventEmitter`. */
export interface NativeEventSource {
  addListener(
    eventName: WhereaboutsEventName,
    listener: (body: any) => void,
  ): NativeListenerHandle | Promise<NativeListenerHandle>;
}

/** The native side of the API, or why there is none here (`unsupportedPlatform`, `notConfigured`). */
export type NativeSide = { send: NativeSend; events: NativeEventSource } | { unavailable: WhereaboutsErrorCode; reason: string };

const none: NoOptions = {};

/**
 * The one Whereabouts API both packages export, over a native side: unwraps each answer's
 * `{ result }` envelope and turns rejections into `WhereaboutsError`s. Where no native side runs,
 * every method rejects with the code and reason given (`unsupportedPlatform` on Android), never with
 * "undefined is not a function". Every rule is native.
 */
export function createWhereabouts(native: NativeSide): Whereabouts {
  const call = async <M extends WhereaboutsMethodName>(
    method: M,
    options: WhereaboutsMethods[M]['options'],
  ): Promise<WhereaboutsMethods[M]['result']> => {
    if ('unavailable' in native) throw new WhereaboutsError(native.unavailable, `${method}: ${native.reason}`);
    try {
      return (await native.send(method, options)).result;
    } catch (error) {
      throw toWhereaboutsError(error);
    }
  };
  const done = async (answer: Promise<null>): Promise<void> => {
    await answer;
  };
  return {
    configure: (options) => done(call('configure', options)),
    setAuth: (options) => done(call('setAuth', options)),
    signOut: () => done(call('signOut', none)),
    start: (options = {}) => done(call('startTracking', options)),
    stop: () => done(call('stopTracking', none)),
    setMode: (options) => done(call('setMode', options)),
    getCurrentLocation: () => call('getCurrentLocation', none),
    getLocations: (options = {}) => call('getLocations', options),
    getLocationData: () => call('getLocationData', none),
    requestLocationUpdate: () => done(call('requestLocationUpdate', none)),
    startActiveTracking: (options) => done(call('startActiveTracking', options)),
    flush: () => call('flush', none),
    clearLocations: () => call('clearLocations', none),
    checkPermissions: () => call('checkPermissions', none),
    requestPermissions: (options = {}) =>
      call('requestPermission', {
        kind: options.permissions?.includes('backgroundLocation') ? 'background' : 'foreground',
      }),
    locationAction: () => call('locationAction', none),
    addRegions: (options) => call('addRegions', options),
    setRegions: (options) => call('setRegions', options),
    removeRegions: (options) => done(call('removeRegions', options)),
    getRegions: () => call('getRegions', none),
    addRegionHere: (options) => call('addRegionHere', options),
    configureNotifications: (options) => call('configureNotifications', options),
    markRegion: (options) => call('markRegion', options),
    addListener: async (event, listener) => {
      if ('unavailable' in native) throw new WhereaboutsError(native.unavailable, `addListener: ${native.reason}`);
      const handle = await native.events.addListener(event, listener);
      return {
        remove: async () => {
          await handle.remove();
        },
      };
    },
  };
}
