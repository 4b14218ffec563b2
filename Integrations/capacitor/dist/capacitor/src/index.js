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
exports.Whereabouts = exports.WhereaboutsNative = void 0;
const core_1 = require("@capacitor/core");
const index_js_1 = require("../../typescript/src/index.js");
/** The raw plugin: native on iOS, `navigator.geolocation` in a browser. */
exports.WhereaboutsNative = (0, core_1.registerPlugin)('Whereabouts', {
    web: () => Promise.resolve().then(() => require('./web.js')).then((module) => new module.WhereaboutsWeb()),
});
/** Whereabouts in a Capacitor app. On Android every call rejects with `unsupportedPlatform`. */
exports.Whereabouts = (0, index_js_1.createWhereabouts)(core_1.Capacitor.getPlatform() === 'android'
    ? { unavailable: 'unsupportedPlatform', reason: 'Whereabouts has no Android implementation yet (see the package README)' }
    : {
        send: (method, options) => exports.WhereaboutsNative[method](options),
        events: exports.WhereaboutsNative,
    });
__exportStar(require("../../typescript/src/index.js"), exports);
