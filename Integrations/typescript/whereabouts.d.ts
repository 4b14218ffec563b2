/**
 * Whereabouts for JavaScript: the types of every bridge method, result, event and error, exactly as
 * the native `Bridge` encodes them. Times are JavaScript milliseconds since 1970 (`Date.now()`); a
 * value the native side does not know is `null`, never left out, unless the type marks it optional.
 *
 * The native glue (the Capacitor plugin, the React Native module) answers every call with the
 * bridge's envelope `{ result }` and rejects failures with a `BridgeError`'s `code` and `message`;
 * `createWhereabouts` in `index.ts` unwraps the envelope into the `Whereabouts` interface below.
 */

/** Milliseconds since 1970-01-01T00:00:00Z. */
export type Milliseconds = number;

// MARK: Locations

/** A position: `{id, latitude, longitude, timestamp}`. */
export interface LocationPoint {
  /** A stored record's UUID in lower case, or the refresh region's id for the fence. */
  id: string;
  /** Degrees, −90…90. */
  latitude: number;
  /** Degrees, −180…180. */
  longitude: number;
  /** When the position was measured. */
  timestamp: Milliseconds;
}

/** A stored record waiting for upload (`getLocations`, the `location` event, `report.items`). */
export interface ReportItem extends LocationPoint {
  /** Horizontal accuracy in metres (68 % confidence radius). */
  accuracy: number;
  /** Seconds the device stayed there after the fix. */
  dwell: number;
}

/** `getCurrentLocation`'s answer: the travel app's shape. */
export interface CurrentLocation {
  lat: number;
  lng: number;
  timestamp: Milliseconds;
}

// MARK: Permissions

/** Which permission: while in use (iOS When In Use), or in the background (iOS Always). */
export type PermissionKind = 'foreground' | 'background';

/** What the app knows about one permission. */
export interface PermissionRecord {
  /** Whether the permission is granted now. */
  isGranted: boolean;
  /** When `isGranted` last changed (or the record was created). */
  updatedAt: Milliseconds;
  /** When the permission was last read from the OS. */
  checkedAt: Milliseconds;
  /** When the OS dialog was last asked for; `null` if it never was. */
  requestedAt: Milliseconds | null;
}

/** The foreground record inside `LocationData`: it always carries `canAskAgain`. */
export interface ForegroundPermissionRecord extends PermissionRecord {
  /** `false` when only the Settings app can grant the permission; `null` when not known. */
  canAskAgain: boolean | null;
}

/** The stable codes of the permission problems. */
export type PermissionProblemCode =
  | 'restricted'
  | 'foregroundDenied'
  | 'backgroundDenied'
  | 'backgroundProvisional'
  | 'reducedAccuracy';

/** A permission state that keeps the app from doing its job, for the app to show. */
export interface PermissionProblem {
  code: PermissionProblemCode;
  kind: PermissionKind;
  /** One or two sentences for the user: what is wrong and what to do. */
  message: string;
  /** Whether an "Open Settings" button can fix it. */
  settingsCanFix: boolean;
}

/** The answer of `checkPermissions`, `requestPermission` and `locationAction`. */
export interface PermissionsResult {
  /** `null` until first requested or answered; `canAskAgain` is present once known. */
  foregroundPermission: (PermissionRecord & { canAskAgain?: boolean }) | null;
  /** `null` until first requested or granted. */
  backgroundPermission: PermissionRecord | null;
  /** Most severe first; empty when all is well. */
  problems: PermissionProblem[];
}

// MARK: LocationData

/** The refresh region around the device. */
export interface Fence {
  /** Its centre, with the refresh region's id, timestamped when it was planned. */
  location: LocationPoint;
  /** Metres from the device to the nearest region boundary. */
  distanceToDiscovery: number;
}

/** The pending upload queue. */
export interface Report {
  /** Item ids in upload order. */
  order: string[];
  /** The items by id. */
  items: Record<string, ReportItem>;
}

/** The snapshot the story app keeps in its store (`getLocationData`, the `locationData` event). */
export interface LocationData {
  lastTriedAt: Milliseconds | null;
  lastLocation: LocationPoint | null;
  fence: Fence | null;
  report: Report;
  foregroundPermission: ForegroundPermissionRecord | null;
  backgroundPermission: PermissionRecord | null;
}

// MARK: Regions

/** A circle to watch, as `addRegions` takes it. */
export interface CircleRegion {
  /** Unique within the app's regions; an existing region with this id is replaced. */
  id: string;
  latitude: number;
  longitude: number;
  /** Metres, greater than 0. */
  radius: number;
  /** Seconds inside before a `dwell` event; absent or `null` for none. */
  loiteringDelay?: number | null;
  /** Whether entering makes an event; `true` when absent or `null`. */
  notifyOnEntry?: boolean | null;
  /** Whether leaving makes an event; `true` when absent or `null`. */
  notifyOnExit?: boolean | null;
}

/** `addRegions`'s options: circles, or a GeoJSON FeatureCollection as text (one or the other). */
export type AddRegionsOptions =
  | { regions: CircleRegion[]; geojson?: never }
  | { geojson: string; regions?: never };

/** `addRegions`'s answer. */
export interface AddRegionsResult {
  added: number;
}

/** `removeRegions`'s options. */
export interface RemoveRegionsOptions {
  ids: string[];
}

/** A region as `getRegions` lists it; a polygon gives its enclosing circle. */
export interface RegionInfo {
  id: string;
  latitude: number;
  longitude: number;
  radius: number;
  loiteringDelay: number | null;
  notifyOnEntry: boolean;
  notifyOnExit: boolean;
  shape: 'circle' | 'polygon';
}

// MARK: Tracking

/** The tracking modes by name. */
export type TrackingModeName =
  | 'manual'
  | 'significant'
  | 'move'
  | 'interval'
  | 'continuous'
  | 'adaptive'
  | 'stop-detect';

/** The accuracy levels of continuous mode. */
export type LocationAccuracy = 'best' | 'tenMeters' | 'hundredMeters' | 'kilometer' | 'threeKilometers';

/** A mode's parameters; each left out takes the mode's default. */
export interface TrackingModeParameters {
  /** Metres: move mode's distance between records, or continuous mode's distance filter. */
  distance?: number | null;
  /** Seconds between records (move, interval). */
  interval?: number | null;
  /** Metres: interval mode's minimum movement. */
  displacement?: number | null;
  /** Continuous mode's accuracy. */
  accuracy?: LocationAccuracy | null;
}

/** `startTracking`'s options: nothing (keep the configured mode), or a mode with its parameters. */
export type StartTrackingOptions =
  | { mode?: never; distance?: never; interval?: never; displacement?: never; accuracy?: never }
  | ({ mode: TrackingModeName } & TrackingModeParameters);

/** `startActiveTracking`'s options. */
export interface StartActiveTrackingOptions {
  /** From 1 to 1440. */
  minutes: number;
}

/** `requestPermission`'s options. */
export interface RequestPermissionOptions {
  kind: PermissionKind;
}

/** The options of a method that takes none. */
export type NoOptions = Record<string, never>;

// MARK: Methods

/** Every bridge method: what it takes and what it answers. */
export interface WhereaboutsMethods {
  startTracking: { options: StartTrackingOptions; result: null };
  stopTracking: { options: NoOptions; result: null };
  getCurrentLocation: { options: NoOptions; result: CurrentLocation | null };
  getLocations: { options: NoOptions; result: ReportItem[] };
  getLocationData: { options: NoOptions; result: LocationData };
  requestLocationUpdate: { options: NoOptions; result: null };
  startActiveTracking: { options: StartActiveTrackingOptions; result: null };
  checkPermissions: { options: NoOptions; result: PermissionsResult };
  requestPermission: { options: RequestPermissionOptions; result: PermissionsResult };
  locationAction: { options: NoOptions; result: PermissionsResult };
  addRegions: { options: AddRegionsOptions; result: AddRegionsResult };
  removeRegions: { options: RemoveRegionsOptions; result: null };
  getRegions: { options: NoOptions; result: RegionInfo[] };
}

/** A bridge method's name. */
export type WhereaboutsMethodName = keyof WhereaboutsMethods;

// MARK: Events

/** A region event as the `region` event pushes it. */
export interface RegionEventBody {
  regionId: string;
  kind: 'enter' | 'exit' | 'dwell';
  timestamp: Milliseconds;
  /** `true` for the state found when monitoring started rather than a crossing seen happen. */
  initial: boolean;
  /** Where the device was, when the event came with a position. */
  latitude: number | null;
  longitude: number | null;
}

/** Every pushed event and its body. */
export interface WhereaboutsEvents {
  /** The snapshot changed; the whole snapshot. */
  locationData: LocationData;
  /** A record was stored. */
  location: ReportItem;
  /** A region event happened. */
  region: RegionEventBody;
}

/** A pushed event's name. */
export type WhereaboutsEventName = keyof WhereaboutsEvents;

// MARK: Errors

/** The stable codes a failed call is rejected with. */
export type BridgeErrorCode =
  | 'unknownMethod'
  | 'invalidArguments'
  | 'permissionDenied'
  | 'trackingDisabled'
  | 'duplicateRegion'
  | 'invalidArgument'
  | 'storeFailure';

/** What a failed call is rejected with: a code to switch on and a message naming the problem and the fix. */
export interface BridgeError {
  code: BridgeErrorCode;
  message: string;
}

// MARK: The API

/** A listener registration; `remove()` stops it. */
export interface WhereaboutsSubscription {
  remove(): Promise<void>;
}

/** Whereabouts as JavaScript uses it; every failed call rejects with a `BridgeError`. */
export interface Whereabouts {
  /** Turns tracking on, in the given mode or the configured one; it stays on across relaunches. */
  startTracking(options?: StartTrackingOptions): Promise<null>;
  /** Turns tracking off. */
  stopTracking(): Promise<null>;
  /** The last stored location, else the last one in memory, else `null`. */
  getCurrentLocation(): Promise<CurrentLocation | null>;
  /** Every record not yet uploaded, in upload order. */
  getLocations(): Promise<ReportItem[]>;
  /** The snapshot now. */
  getLocationData(): Promise<LocationData>;
  /** Takes one fix now; it arrives as `location` and `locationData` events. */
  requestLocationUpdate(): Promise<null>;
  /** Tracks at full accuracy for a while (tracking must be on). */
  startActiveTracking(options: StartActiveTrackingOptions): Promise<null>;
  /** Reads both permissions again, and asks for background when the rules allow. */
  checkPermissions(): Promise<PermissionsResult>;
  /** Asks for a permission under the same rules. */
  requestPermission(options: RequestPermissionOptions): Promise<PermissionsResult>;
  /** The user started something that needs a position: asks for foreground, or opens Settings. */
  locationAction(): Promise<PermissionsResult>;
  /** Adds regions (any number; only the nearest are handed to the OS). */
  addRegions(options: AddRegionsOptions): Promise<AddRegionsResult>;
  /** Removes regions by id; unknown ids are ignored. */
  removeRegions(options: RemoveRegionsOptions): Promise<null>;
  /** Every region, sorted by id. */
  getRegions(): Promise<RegionInfo[]>;
  /** Listens to a pushed event. */
  addListener<E extends WhereaboutsEventName>(
    event: E,
    listener: (body: WhereaboutsEvents[E]) => void,
  ): Promise<WhereaboutsSubscription>;
}

// MARK: The native modules

/**
 * The native module's methods as the Capacitor plugin and the React Native module expose them: each
 * takes the method's options and resolves with the bridge's envelope `{ result }`.
 */
export type WhereaboutsNative = {
  [M in WhereaboutsMethodName]: (
    options: WhereaboutsMethods[M]['options'],
  ) => Promise<{ result: WhereaboutsMethods[M]['result'] }>;
};

/** A listener handle as Capacitor (`PluginListenerHandle`) and React Native (`EmitterSubscription`) return it. */
export interface NativeListenerHandle {
  remove(): void | Promise<void>;
}

/**
 * Where pushed events come from: the Capacitor plugin itself, or a React Native
 * `NativeEventEmitter` over the module.
 */
export interface NativeEventSource {
  addListener(
    eventName: WhereaboutsEventName,
    listener: (body: any) => void,
  ): NativeListenerHandle | Promise<NativeListenerHandle>;
}
