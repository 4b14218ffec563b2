// A stand-in for @capacitor/core in the tests: the plugin and the platform come from
// globalThis.whereaboutsFake, set by each test before it loads the package.
class WebPlugin {
  constructor() {
    this.listeners = {};
  }
  async addListener(eventName, listener) {
    (this.listeners[eventName] = this.listeners[eventName] || []).push(listener);
    return { remove: async () => {} };
  }
  notifyListeners(eventName, data) {
    for (const listener of this.listeners[eventName] || []) listener(data);
  }
}

module.exports = {
  WebPlugin,
  Capacitor: { getPlatform: () => globalThis.whereaboutsFake.platform },
  registerPlugin: () => globalThis.whereaboutsFake.plugin,
};
