import { WebPlugin } from '@capacitor/core';
import { WhereaboutsError } from '../../typescript/src/index.js';
import type { ClearLocationsResult, CurrentLocation, GetLocationsOptions, PermissionState, PermissionStatus, ReportItem, StoredLocation } from '../../typescript/src/index.js';
import { Trail } from './trail.js';

/**
 * Whereabouts in a browser, for developing the web part of a Capacitor app: positions come from
 * `navigator.geolocation` and are kept in memory for `getCurrentLocation` and `getLocations`; nothing
 * is uploaded, and every method that needs the native engine (regions, uploads, modes) rejects with
 * `unsupportedPlatform`.
 */
export class WhereaboutsWeb extends WebPlugin {
  /** The browser watch of the tracking on, from the moment it is asked for; `null` while off. */
  private watch: number | null = null;
  /** Marks the tracking on: a watch's positions are recorded only while its start's token is this one. */
  private token: object | null = null;
  /** The start waiting for the browser's first answer, which a second start joins. */
  private starting: Promise<{ result: null }> | null = null;
  /** Ends that wait when tracking stops first. */
  private endWait: (() => void) | null = null;
  private readonly trail = new Trail();
  /** Counts the positions recorded, so that two with the same timestamp get different ids. */
  private recorded = 0;

  /**
   * Watches positions; resolves at the browser's first answer, rejects with `permissionDenied` if it
   * refuses. One watch at most: a start while one is on or waiting joins it, and a stop while a start
   * waits wins (the watch is cleared, nothing more is recorded, and the start resolves).
   */
  async startTracking(): Promise<{ result: null }> {
    if (this.token !== null) return this.starting ?? { result: null };
    const geolocation = WhereaboutsWeb.geolocation('startTracking');
    const token = {};
    this.token = token;
    let settle: (failure: WhereaboutsError | null) => void = () => {};
    const firstAnswer = new Promise<WhereaboutsError | null>((resolve) => (settle = resolve));
    this.endWait = () => settle(null);
    // The browser may answer inside watchPosition, before its id is known: the token says whether to record.
    const watch = geolocation.watchPosition(
      (position) => {
        if (this.token === token) this.record(position);
        settle(null);
      },
      (error) => settle(WhereaboutsWeb.failure('startTracking', error)),
    );
    this.watch = watch;
    const started = (async () => {
      const failure = await firstAnswer;
      if (this.token !== token) return { result: null } as const;
      this.starting = null;
      this.endWait = null;
      if (failure !== null && failure.code === 'permissionDenied') {
        geolocation.clearWatch(watch);
        this.watch = null;
        this.token = null;
        throw failure;
      }
      return { result: null } as const;
    })();
    this.starting = started;
    return started;
  }

  /** Clears the watch, also one whose start still waits for the browser. */
  async stopTracking(): Promise<{ result: null }> {
    const watch = this.watch;
    const endWait = this.endWait;
    this.watch = null;
    this.token = null;
    this.starting = null;
    this.endWait = null;
    if (watch !== null) WhereaboutsWeb.geolocation('stopTracking').clearWatch(watch);
    endWait?.();
    return { result: null };
  }

  /** The newest stored position; before the first, one the browser is asked for, stored. */
  async getCurrentLocation(): Promise<{ result: CurrentLocation | null }> {
    if (this.trail.newest() === null) this.record(await WhereaboutsWeb.position('getCurrentLocation'));
    return { result: this.trail.newest() };
  }

  /** The stored positions; `limit` must be a whole number from 1 to 100000, as on the device. */
  async getLocations(options: GetLocationsOptions = {}): Promise<{ result: StoredLocation[] }> {
    return { result: this.trail.list(options ?? {}) };
  }

  async clearLocations(): Promise<{ result: ClearLocationsResult }> {
    return { result: this.trail.clear() };
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
  getLocationData = WhereaboutsWeb.unsupported('getLocationData');
  requestLocationUpdate = WhereaboutsWeb.unsupported('requestLocationUpdate');
  startActiveTracking = WhereaboutsWeb.unsupported('startActiveTracking');
  flush = WhereaboutsWeb.unsupported('flush');
  addRegions = WhereaboutsWeb.unsupported('addRegions');
  setRegions = WhereaboutsWeb.unsupported('setRegions');
  removeRegions = WhereaboutsWeb.unsupported('removeRegions');
  getRegions = WhereaboutsWeb.unsupported('getRegions');
  addRegionHere = WhereaboutsWeb.unsupported('addRegionHere');
  configureNotifications = WhereaboutsWeb.unsupported('configureNotifications');
  markRegion = WhereaboutsWeb.unsupported('markRegion');

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
      geolocation.getCurrentPosition(resolve, (error) => reject(WhereaboutsWeb.failure(method, error))),
    );
  }

  /** The Whereabouts error for the browser's geolocation error. */
  private static failure(method: string, error: GeolocationPositionError): WhereaboutsError {
    return error.code === error.PERMISSION_DENIED
      ? new WhereaboutsError('permissionDenied', `${method}: the browser denies location; allow it in the site settings`)
      : new WhereaboutsError('internal', `${method}: the browser found no position (${error.message})`);
  }

  /** Stores a browser position and sends it as a `location` event. */
  private record(position: GeolocationPosition): void {
    this.recorded += 1;
    const item = WhereaboutsWeb.item(position, this.recorded);
    this.trail.add(item);
    this.notifyListeners('location', item);
  }

  /** The record of the `count`th position recorded: its id is unique even when timestamps repeat. */
  private static item(position: GeolocationPosition, count: number): ReportItem {
    return {
      id: `web-${position.timestamp}-${count}`,
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
