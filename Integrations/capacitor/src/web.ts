import { WebPlugin } from '@capacitor/core';
import { WhereaboutsError } from '../../typescript/src/index.js';
import type { CurrentLocation, PermissionState, PermissionStatus, ReportItem } from '../../typescript/src/index.js';

/**
 * Whereabouts in a browser, for developing the web part of a Capacitor app: positions come from
 * `navigator.geolocation`; nothing is stored or uploaded, and every method that needs the native
 * engine (regions, uploads, the stored history) rejects with `unsupportedPlatform`.
 */
export class WhereaboutsWeb extends WebPlugin {
  private watch: number | null = null;

  async startTracking(): Promise<{ result: null }> {
    const geolocation = WhereaboutsWeb.geolocation('startTracking');
    if (this.watch === null) {
      this.watch = geolocation.watchPosition((position) => this.notifyListeners('location', WhereaboutsWeb.item(position)));
    }
    return { result: null };
  }

  async stopTracking(): Promise<{ result: null }> {
    if (this.watch !== null) WhereaboutsWeb.geolocation('stopTracking').clearWatch(this.watch);
    this.watch = null;
    return { result: null };
  }

  async getCurrentLocation(): Promise<{ result: CurrentLocation | null }> {
    const position = await WhereaboutsWeb.position('getCurrentLocation');
    return { result: { lat: position.coords.latitude, lng: position.coords.longitude, timestamp: position.timestamp } };
  }

  async checkPermissions(): Promise<{ result: PermissionStatus }> {
    if (typeof navigator === 'undefined' || navigator.permissions === undefined) return { result: WhereaboutsWeb.status('prompt') };
    const answer = await navigator.permissions.query({ name: 'geolocation' });
    return { result: WhereaboutsWeb.status(answer.state) };
  }

  async requestPermission(): Promise<{ result: PermissionStatus }> {
    try {
      await WhereaboutsWeb.position('requestPermission');
      return { result: WhereaboutsWeb.status('granted') };
    } catch (error) {
      if (error instanceof WhereaboutsError && error.code === 'permissionDenied') return { result: WhereaboutsWeb.status('denied') };
      throw error;
    }
  }

  async locationAction(): Promise<{ result: PermissionStatus }> {
    return this.requestPermission();
  }

  configure = WhereaboutsWeb.unsupported('configure');
  setAuth = WhereaboutsWeb.unsupported('setAuth');
  signOut = WhereaboutsWeb.unsupported('signOut');
  setMode = WhereaboutsWeb.unsupported('setMode');
  getLocations = WhereaboutsWeb.unsupported('getLocations');
  getLocationData = WhereaboutsWeb.unsupported('getLocationData');
  requestLocationUpdate = WhereaboutsWeb.unsupported('requestLocationUpdate');
  startActiveTracking = WhereaboutsWeb.unsupported('startActiveTracking');
  flush = WhereaboutsWeb.unsupported('flush');
  clearLocations = WhereaboutsWeb.unsupported('clearLocations');
  addRegions = WhereaboutsWeb.unsupported('addRegions');
  setRegions = WhereaboutsWeb.unsupported('setRegions');
  removeRegions = WhereaboutsWeb.unsupported('removeRegions');
  getRegions = WhereaboutsWeb.unsupported('getRegions');

  private static unsupported(method: string): () => Promise<never> {
    return async () => {
      throw new WhereaboutsError('unsupportedPlatform', `${method}: needs the native engine; in a browser only positions and permissions work`);
    };
  }

  private static geolocation(method: string): Geolocation {
    if (typeof navigator === 'undefined' || navigator.geolocation === undefined) {
      throw new WhereaboutsError('unsupportedPlatform', `${method}: this browser has no navigator.geolocation`);
    }
    return navigator.geolocation;
  }

  private static position(method: string): Promise<GeolocationPosition> {
    const geolocation = WhereaboutsWeb.geolocation(method);
    return new Promise((resolve, reject) =>
      geolocation.getCurrentPosition(resolve, (error) =>
        reject(
          error.code === error.PERMISSION_DENIED
            ? new WhereaboutsError('permissionDenied', `${method}: the browser denies location; allow it in the site settings`)
            : new WhereaboutsError('internal', `${method}: the browser found no position (${error.message})`),
        ),
      ),
    );
  }

  private static item(position: GeolocationPosition): ReportItem {
    return {
      id: `web-${position.timestamp}`,
      latitude: position.coords.latitude,
      longitude: position.coords.longitude,
      timestamp: position.timestamp,
      accuracy: position.coords.accuracy,
      dwell: 0,
    };
  }

  private static status(state: PermissionState): PermissionStatus {
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
