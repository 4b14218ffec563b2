// A stand-in for react-native in the tests: the TurboModule and the platform come from
// globalThis.whereaboutsFake, set by each test before it loads the package.
class NativeEventEmitter {
  constructor(module) {
    this.module = module;
  }
  addListener(eventType, listener) {
    return this.module.listen(eventType, listener);
  }
}

module.exports = {
  TurboModuleRegistry: { get: () => globalThis.whereaboutsFake.module },
  NativeModules: {},
  get Platform() {
    return { OS: globalThis.whereaboutsFake.platform };
  },
  NativeEventEmitter,
};
