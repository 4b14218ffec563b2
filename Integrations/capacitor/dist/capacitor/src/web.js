"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WhereaboutsWeb = void 0;
const core_1 = require("@capacitor/core");
const index_js_1 = require("../../typescript/src/index.js");
/**
 * Whereabouts in a browser, for developing the web part of a Capacitor app: positions come from
 * `navigator.geolocation`; nothing is stored or uploaded, and every method that needs the native
 * engine (regions, uploads, the stored history) rejects with `unsupportedPlatform`.
 */
class WhereaboutsWeb extends core_1.WebPlugin {
    constructor() {
        super(...arguments);
        this.watch = null;
        this.configure = WhereaboutsWeb.unsupported('configure');
        this.setAuth = WhereaboutsWeb.unsupported('setAuth');
        this.signOut = WhereaboutsWeb.unsupported('signOut');
        this.setMode = WhereaboutsWeb.unsupported('setMode');
        this.getLocations = WhereaboutsWeb.unsupported('getLocations');
        this.getLocationData = WhereaboutsWeb.unsupported('getLocationData');
        this.requestLocationUpdate = WhereaboutsWeb.unsupported('requestLocationUpdate');
        this.startActiveTracking = WhereaboutsWeb.unsupported('startActiveTracking');
        this.flush = WhereaboutsWeb.unsupported('flush');
        this.clearLocations = WhereaboutsWeb.unsupported('clearLocations');
        this.addRegions = WhereaboutsWeb.unsupported('addRegions');
        this.setRegions = WhereaboutsWeb.unsupported('setRegions');
        this.removeRegions = WhereaboutsWeb.unsupported('removeRegions');
        this.getRegions = WhereaboutsWeb.unsupported('getRegions');
    }
    async startTracking() {
        const geolocation = WhereaboutsWeb.geolocation('startTracking');
        if (this.watch === null) {
            this.watch = geolocation.watchPosition((position) => this.notifyListeners('location', WhereaboutsWeb.item(position)));
        }
        return { result: null };
    }
    async stopTracking() {
        if (this.watch !== null)
            WhereaboutsWeb.geolocation('stopTracking').clearWatch(this.watch);
        this.watch = null;
        return { result: null };
    }
    async getCurrentLocation() {
        const position = await WhereaboutsWeb.position('getCurrentLocation');
        return { result: { lat: position.coords.latitude, lng: position.coords.longitude, timestamp: position.timestamp } };
    }
    async checkPermissions() {
        if (typeof navigator === 'undefined' || navigator.permissions === undefined)
            return { result: WhereaboutsWeb.status('prompt') };
        const answer = await navigator.permissions.query({ name: 'geolocation' });
        return { result: WhereaboutsWeb.status(answer.state) };
    }
    async requestPermission() {
        try {
            await WhereaboutsWeb.position('requestPermission');
            return { result: WhereaboutsWeb.status('granted') };
        }
        catch (error) {
            if (error instanceof index_js_1.WhereaboutsError && error.code === 'permissionDenied')
                return { result: WhereaboutsWeb.status('denied') };
            throw error;
        }
    }
    async locationAction() {
        return this.requestPermission();
    }
    static unsupported(method) {
        return async () => {
            throw new index_js_1.WhereaboutsError('unsupportedPlatform', `${method}: needs the native engine; in a browser only positions and permissions work`);
        };
    }
    static geolocation(method) {
        if (typeof navigator === 'undefined' || navigator.geolocation === undefined) {
            throw new index_js_1.WhereaboutsError('unsupportedPlatform', `${method}: this browser has no navigator.geolocation`);
        }
        return navigator.geolocation;
    }
    static position(method) {
        const geolocation = WhereaboutsWeb.geolocation(method);
        return new Promise((resolve, reject) => geolocation.getCurrentPosition(resolve, (error) => reject(error.code === error.PERMISSION_DENIED
            ? new index_js_1.WhereaboutsError('permissionDenied', `${method}: the browser denies location; allow it in the site settings`)
            : new index_js_1.WhereaboutsError('internal', `${method}: the browser found no position (${error.message})`))));
    }
    static item(position) {
        return {
            id: `web-${position.timestamp}`,
            latitude: position.coords.latitude,
            longitude: position.coords.longitude,
            timestamp: position.timestamp,
            accuracy: position.coords.accuracy,
            dwell: 0,
        };
    }
    static status(state) {
        return {
            location: state,
            backgroundLocation: state === 'granted' ? 'denied' : state,
            status: state === 'prompt' ? 'undetermined' : state,
            granted: state === 'granted',
            canAskAgain: state !== 'denied',
            foregroundPermission: null,
            backgroundPermission: null,
            problems: [],
        };
    }
}
exports.WhereaboutsWeb = WhereaboutsWeb;
