import { WebPlugin } from '@capacitor/core';
import type { CurrentLocation, PermissionStatus } from '../../typescript/src/index.js';
/**
 * Whereabouts in a browser, for developing the web part of a Capacitor app: positions come from
 * `navigator.geolocation`; nothing is stored or uploaded, and every method that needs the native
 * engine (regions, uploads, the stored history) rejects with `unsupportedPlatform`.
 */
export declare class WhereaboutsWeb extends WebPlugin {
    private watch;
    startTracking(): Promise<{
        result: null;
    }>;
    stopTracking(): Promise<{
        result: null;
    }>;
    getCurrentLocation(): Promise<{
        result: CurrentLocation | null;
    }>;
    checkPermissions(): Promise<{
        result: PermissionStatus;
    }>;
    requestPermission(): Promise<{
        result: PermissionStatus;
    }>;
    locationAction(): Promise<{
        result: PermissionStatus;
    }>;
    configure: () => Promise<never>;
    setAuth: () => Promise<never>;
    signOut: () => Promise<never>;
    setMode: () => Promise<never>;
    getLocations: () => Promise<never>;
    getLocationData: () => Promise<never>;
    requestLocationUpdate: () => Promise<never>;
    startActiveTracking: () => Promise<never>;
    flush: () => Promise<never>;
    clearLocations: () => Promise<never>;
    addRegions: () => Promise<never>;
    setRegions: () => Promise<never>;
    removeRegions: () => Promise<never>;
    getRegions: () => Promise<never>;
    private static unsupported;
    private static geolocation;
    private static position;
    private static item;
    private static status;
}
