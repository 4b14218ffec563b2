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

/** Where `value` holds a number JSON cannot carry (NaN, ±Infinity) or a BigInt: the path (`distance`, `regions[2].radius`), else `null`. */
function nonJSONValue(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (typeof value === 'bigint') return path;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = nonJSONValue(value[index], `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      const found = nonJSONValue(member, path === '' ? key : `${path}.${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * A method's options as JSON text, as the React Native glue sends them: text keeps every `null`
 * (`configure({ upload: null })`), which the New Architecture's conversion of objects drops. A number
 * JSON cannot carry (NaN, ±Infinity, which `JSON.stringify` would turn into `null`) is refused with
 * `invalidArguments` naming it, as the native side refuses it when it gets an object.
 */
export function optionsJSON(method: WhereaboutsMethodName, options: unknown): string {
  const path = nonJSONValue(options, '');
  if (path !== null) {
    throw new WhereaboutsError('invalidArguments', `${method}: "${path}" is NaN, infinite or not a JSON value; pass a finite number`);
  }
  return JSON.stringify(options ?? {});
}

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
      // Plain JavaScript may leave out a required options object: native gets `{}` and names what is missing.
      return (await native.send(method, options ?? ({} as WhereaboutsMethods[M]['options']))).result;
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
