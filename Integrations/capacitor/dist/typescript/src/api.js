"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createWhereabouts = void 0;
const errors_js_1 = require("./errors.js");
const none = {};
/**
 * The one Whereabouts API both packages export, over a native side: unwraps each answer's
 * `{ result }` envelope and turns rejections into `WhereaboutsError`s. Where no native side runs,
 * every method rejects with the code and reason given (`unsupportedPlatform` on Android), never with
 * "undefined is not a function". Every rule is native.
 */
function createWhereabouts(native) {
    const call = async (method, options) => {
        if ('unavailable' in native)
            throw new errors_js_1.WhereaboutsError(native.unavailable, `${method}: ${native.reason}`);
        try {
            return (await native.send(method, options)).result;
        }
        catch (error) {
            throw (0, errors_js_1.toWhereaboutsError)(error);
        }
    };
    const done = async (answer) => {
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
        requestPermissions: (options = {}) => {
            var _a;
            return call('requestPermission', {
                kind: ((_a = options.permissions) === null || _a === void 0 ? void 0 : _a.includes('backgroundLocation')) ? 'background' : 'foreground',
            });
        },
        locationAction: () => call('locationAction', none),
        addRegions: (options) => call('addRegions', options),
        setRegions: (options) => call('setRegions', options),
        removeRegions: (options) => done(call('removeRegions', options)),
        getRegions: () => call('getRegions', none),
        addListener: async (event, listener) => {
            if ('unavailable' in native)
                throw new errors_js_1.WhereaboutsError(native.unavailable, `addListener: ${native.reason}`);
            const handle = await native.events.addListener(event, listener);
            return {
                remove: async () => {
                    await handle.remove();
                },
            };
        },
    };
}
exports.createWhereabouts = createWhereabouts;
