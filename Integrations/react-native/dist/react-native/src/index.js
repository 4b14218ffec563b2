"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.Whereabouts = void 0;
const react_native_1 = require("react-native");
const index_js_1 = require("../../typescript/src/index.js");
const NativeWhereabouts_js_1 = require("./NativeWhereabouts.js");
/** The native side on this platform: the TurboModule, else the old architecture's module. */
function nativeSide() {
    var _a;
    if (react_native_1.Platform.OS !== 'ios') {
        return {
            unavailable: 'unsupportedPlatform',
            reason: `Whereabouts has no ${react_native_1.Platform.OS} implementation yet (see the package README)`,
        };
    }
    const module = (_a = NativeWhereabouts_js_1.default !== null && NativeWhereabouts_js_1.default !== void 0 ? NativeWhereabouts_js_1.default : react_native_1.NativeModules.Whereabouts) !== null && _a !== void 0 ? _a : null;
    if (module === null) {
        return { unavailable: 'notConfigured', reason: 'the Whereabouts native module is not linked: run pod install and rebuild the app' };
    }
    const events = new react_native_1.NativeEventEmitter(module);
    return {
        send: (method, options) => module.call(method, options),
        events: { addListener: (name, listener) => events.addListener(name, listener) },
    };
}
/** Whereabouts in a React Native app. On Android every call rejects with `unsupportedPlatform`. */
exports.Whereabouts = (0, index_js_1.createWhereabouts)(nativeSide());
__exportStar(require("../../typescript/src/index.js"), exports);
