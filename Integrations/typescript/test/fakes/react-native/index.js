// A stand-in for react-native in the tests: the TurboModule and the platform come from
// globalThis.whereaboutsFake, set by each test before it loads the package. Every argument reaches the
// module as the New Architecture's interop layer for legacy modules converts it
// (ObjCInteropTurboModule, `useNSNull = NO`): an object loses every key whose value is `null` or
// `undefined`, at every depth; an array keeps its nulls (NSNull).
function interop(value) {
  if (Array.isArray(value)) return value.map((element) => (element === undefined ? null : interop(element)));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, member]) => member !== null && member !== undefined)
        .map(([key, member]) => [key, interop(member)]),
    );
  }
  return value;
}

class NativeEventEmitter {
  constructor(module) {
    this.module = module;
  }
  addListener(eventType, listener) {
    return this.module.listen(eventType, listener);
  }
}

/** The fake module as the New Architecture hands it calls. */
function turboModule() {
  const module = globalThis.whereaboutsFake.module;
  if (module === null) return null;
  return { ...module, call: (...args) => module.call(...args.map(interop)) };
}

module.exports = {
  TurboModuleRegistry: { get: turboModule },
  NativeModules: {},
  get Platform() {
    return { OS: globalThis.whereaboutsFake.platform };
  },
  NativeEventEmitter,
  interop,
};
