import type {
  BridgeError,
  BridgeErrorCode,
  NativeEventSource,
  NoOptions,
  Whereabouts,
  WhereaboutsMethodName,
  WhereaboutsMethods,
  WhereaboutsNative,
} from './whereabouts';

const none: NoOptions = {};

const codes: readonly BridgeErrorCode[] = [
  'unknownMethod',
  'invalidArguments',
  'permissionDenied',
  'trackingDisabled',
  'duplicateRegion',
  'invalidArgument',
  'storeFailure',
];

/**
 * The typed API over a native module: unwraps each answer's `{ result }` envelope and turns event
 * registrations into `WhereaboutsSubscription`s. No other logic: every rule is native.
 *
 * Capacitor: `createWhereabouts(plugin, plugin)` with `plugin = registerPlugin('Whereabouts')`.
 * React Native: `createWhereabouts(NativeModules.Whereabouts, new NativeEventEmitter(NativeModules.Whereabouts))`.
 */
export function createWhereabouts(native: WhereaboutsNative, events: NativeEventSource): Whereabouts {
  const call = async <M extends WhereaboutsMethodName>(
    method: M,
    options: WhereaboutsMethods[M]['options'],
  ): Promise<WhereaboutsMethods[M]['result']> => {
    const send = native[method] as (options: WhereaboutsMethods[M]['options']) => Promise<{
      result: WhereaboutsMethods[M]['result'];
    }>;
    return (await send(options)).result;
  };
  return {
    startTracking: (options = {}) => call('startTracking', options),
    stopTracking: () => call('stopTracking', none),
    getCurrentLocation: () => call('getCurrentLocation', none),
    getLocations: () => call('getLocations', none),
    getLocationData: () => call('getLocationData', none),
    requestLocationUpdate: () => call('requestLocationUpdate', none),
    startActiveTracking: (options) => call('startActiveTracking', options),
    checkPermissions: () => call('checkPermissions', none),
    requestPermission: (options) => call('requestPermission', options),
    locationAction: () => call('locationAction', none),
    addRegions: (options) => call('addRegions', options),
    removeRegions: (options) => call('removeRegions', options),
    getRegions: () => call('getRegions', none),
    addListener: async (event, listener) => {
      const handle = await events.addListener(event, listener);
      return {
        remove: async () => {
          await handle.remove();
        },
      };
    },
  };
}

/** Whether a rejection carries a Whereabouts `{ code, message }`. */
export function isBridgeError(error: unknown): error is BridgeError {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof message === 'string' && typeof code === 'string' && (codes as readonly string[]).includes(code);
}
