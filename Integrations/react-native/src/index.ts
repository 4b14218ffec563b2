import { NativeEventEmitter, NativeModules, Platform } from 'react-native';
import { createWhereabouts, optionsJSON } from '../../typescript/src/index.js';
import type { NativeSide } from '../../typescript/src/index.js';
import NativeWhereabouts from './NativeWhereabouts.js';
import type { Spec } from './NativeWhereabouts.js';

/** The native side on this platform: the TurboModule, else the old architecture's module. */
function nativeSide(): NativeSide {
  if (Platform.OS !== 'ios') {
    return {
      unavailable: 'unsupportedPlatform',
      reason: `Whereabouts has no ${Platform.OS} implementation yet (see the package README)`,
    };
  }
  const module: Spec | null = NativeWhereabouts ?? NativeModules.Whereabouts ?? null;
  if (module === null) {
    return { unavailable: 'notConfigured', reason: 'the Whereabouts native module is not linked: run pod install and rebuild the app' };
  }
  const events = new NativeEventEmitter(module);
  return {
    // JSON text, not the object: the New Architecture's interop layer drops every null-valued key.
    send: (method, options) => module.call(method, optionsJSON(method, options)) as Promise<never>,
    events: { addListener: (name, listener) => events.addListener(name, listener) },
  };
}

/** Whereabouts in a React Native app. On Android every call rejects with `unsupportedPlatform`. */
export const Whereabouts = createWhereabouts(nativeSide());

export * from '../../typescript/src/index.js';
