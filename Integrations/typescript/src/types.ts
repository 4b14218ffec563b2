/**
 * Whereabouts for JavaScript: the types of every method, result, event and error, exactly as the
 * native `Bridge` encodes them. Times are JavaScript milliseconds since 1970 (`Date.now()`); a value
 * the native side does not know is `null`, never left out, unless the type marks it optional.
 */

import type { TrackingModeName, UploadStop, UploadTrigger } from './names.js';

/** Milliseconds since 1970-01-01T00:00:00Z. */
export type Milliseconds = number;

// MARK: Locations

/** A position: `{id, latitude, longitude, timestamp}`. */
export interface LocationPoint {
  /**
   * A stored record's UUID in lower case; the refresh region's id for the fence; or, for
   * `LocationData.lastLocation`, `"unrecorded"` when the newest fix was kept out of the store (the
   * mode's policy or its accuracy). Only a UUID names a stored location (`markRegion` refuses the
   * others with `invalidArguments`).
   */
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

/** A stored record as `getLocations` lists it. */
export interface StoredLocation extends ReportItem {
  /** Whether a server acknowledged it. */
  uploaded: boolean;
}

/** `getLocations`' options. */
export interface GetLocationsOptions {
  /** List uploaded records too (the whole breadcrumb trail), not only those waiting; `false` by default. */
  includeUploaded?: boolean;
  /** At most this many, the newest (1 to 100000; 1000 by default). */
  limit?: number;
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

/** A permission as Capacitor states it. */
export type PermissionState = 'granted' | 'denied' | 'prompt';

/**
 * The permission calls' answer and the `permission` event: Capacitor's convention (`location`,
 * `backgroundLocation`), Expo's (`status`, `granted`, `canAskAgain`, for the foreground permission),
 * and the records and problems behind them.
 */
export interface PermissionStatus {
  location: PermissionState;
  backgroundLocation: PermissionState;
  status: 'granted' | 'denied' | 'undetermined';
  granted: boolean;
  canAskAgain: boolean;
  /** `null` until first requested or answered; `canAskAgain` is present once known. */
  foregroundPermission: (PermissionRecord & { canAskAgain?: boolean | null }) | null;
  /** `null` until first requested or granted. */
  backgroundPermission: PermissionRecord | null;
  /** Most severe first; empty when all is well. */
  problems: PermissionProblem[];
}

/** `requestPermissions`' options, as Capacitor's: which permission to ask for (`location` by default). */
export interface RequestPermissionsOptions {
  permissions?: ('location' | 'backgroundLocation')[];
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
  /** What the app's iOS set-up (Info.plist) lacks, and so what the engine left off; empty when nothing is missing. */
  setupProblems: SetupProblem[];
}

/** The stable codes of the set-up problems, one per missing Info.plist declaration. */
export type SetupProblemCode =
  | 'motionUsageDescriptionMissing'
  | 'whenInUseUsageDescriptionMissing'
  | 'alwaysUsageDescriptionMissing'
  | 'locationBackgroundModeMissing'
  | 'refreshTaskNotPermitted';

/** A missing Info.plist declaration and the feature left off because of it (never a crash). */
export interface SetupProblem {
  code: SetupProblemCode;
  /** The Info.plist key to add. */
  key: string;
  /** What is missing, what was turned off and how to fix it. */
  message: string;
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

/** `setRegions`' answer. */
export interface SetRegionsResult {
  count: number;
}

/** `removeRegions`'s options. */
export interface RemoveRegionsOptions {
  ids: string[];
}

/** `markRegion`'s options: a stored location's id and a radius in metres (0 unmarks). */
export interface MarkRegionOptions {
  /** The id `getLocations` lists. */
  id: string;
  /** Metres, up to 100 000; 0 removes the region. */
  radius: number;
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
  /** Whether the device is inside now. */
  inside: boolean;
}

/** `addRegionHere`'s options. */
export interface AddRegionHereOptions {
  id: string;
  /** Metres, greater than 0. */
  radius: number;
  /** The largest error in metres the centre may have; 20 by default. */
  accuracy?: number;
  /** Seconds to wait for such a fix, 1 to 120; 20 by default. */
  timeout?: number;
}

/** `addRegionHere`'s answer: the region saved and the fix it is centred on. */
export interface RegionHereResult {
  region: RegionInfo;
  /** The fix's horizontal accuracy in metres. */
  accuracy: number;
  /** When the fix was taken. */
  timestamp: Milliseconds;
}

/** A button of the region notifications' category. */
export interface NotificationAction {
  /** Handed to the app when the user taps it. */
  id: string;
  title: string;
  /** Whether tapping it opens the app; `false` by default. */
  opensApp?: boolean;
}

/** `configureNotifications`' options. */
export interface NotificationOptions {
  enabled: boolean;
  /** The kinds of region event notified; all three by default. */
  kinds?: RegionEventBody['kind'][];
  /** The notification category every one carries; `whereabouts.region` by default. */
  category?: string;
  actions?: NotificationAction[];
}

/** `configureNotifications`' answer. */
export interface NotificationResult {
  enabled: boolean;
  /** Whether the user lets the app notify (always `false` where the platform has no notifier). */
  allowed: boolean;
}

// MARK: Tracking

/** The accuracy levels of continuous mode. */
export type LocationAccuracy = 'best' | 'tenMeters' | 'hundredMeters' | 'kilometer' | 'threeKilometers';

/** A mode's parameters; each left out takes the mode's default. */
export interface TrackingModeParameters {
  /** Metres: move mode's distance between records, or continuous mode's distance filter. */
  distance?: number | null;
  /** Seconds between records (move, interval). */
  interval?: number | null;
  /** Metres: interval mode's minimum movement while the app is in the background (500 by default). */
  displacement?: number | null;
  /** Metres: interval mode's minimum movement while the app is in the foreground (50, or `displacement` if smaller, by default). */
  foregroundDisplacement?: number | null;
  /** Continuous mode's accuracy. */
  accuracy?: LocationAccuracy | null;
}

/** `startTracking`'s options: nothing (keep the configured mode), or a mode with its parameters. */
export type StartTrackingOptions =
  | { mode?: never; distance?: never; interval?: never; displacement?: never; foregroundDisplacement?: never; accuracy?: never }
  | ({ mode: TrackingModeName } & TrackingModeParameters);

/** `startActiveTracking`'s options. */
export interface StartActiveTrackingOptions {
  /** From 1 to 1440. */
  minutes: number;
}

/** Where uploads go: our server, an OwnTracks HTTP endpoint, or Firestore. */
export type UploadSettings =
  | { kind: 'whereabouts'; url: string; device: string }
  | { kind: 'owntracks'; url: string; user: string; device: string; password?: string; trackerId?: string }
  | { kind: 'firestore'; project: string; apiKey: string; collection?: string; url?: string; tokenUrl?: string };

/** `configure`'s options; `upload: null` stops uploading. */
export interface ConfigureOptions {
  upload: UploadSettings | null;
  /**
   * The most often, in seconds (0 to 86400), that new records, region events and motion changes
   * start an upload; stopping, an arrival and the foreground still upload at once. `null` takes the
   * mode's own: half an hour, an hour for `efficient`. Left out, the interval in force stays. Kept
   * across relaunches.
   */
  uploadInterval?: number | null;
}

/** `setAuth`'s options: our server's token, or Firebase's ID and refresh tokens. */
export interface AuthOptions {
  token?: string;
  refreshToken?: string;
  expiresAt?: Milliseconds;
  userId?: string;
}

/** A flush's report (`flush`, the `upload` event). */
export interface UploadResult {
  trigger: UploadTrigger;
  delivered: number;
  eventsDelivered: number;
  rejected: number;
  requests: number;
  /** Why records are still pending; `null` when the flush emptied the queue. */
  stoppedBy: UploadStop | null;
  message: string | null;
  /** When the next attempt may go out. */
  retryAt: Milliseconds | null;
}

/** `clearLocations`' answer. */
export interface ClearLocationsResult {
  removed: number;
}

/** The options of a method that takes none. */
export type NoOptions = Record<string, never>;

// MARK: Methods

/** Every native method: what it takes and what it answers. */
export interface WhereaboutsMethods {
  configure: { options: ConfigureOptions; result: null };
  setAuth: { options: AuthOptions; result: null };
  signOut: { options: NoOptions; result: null };
  startTracking: { options: StartTrackingOptions; result: null };
  stopTracking: { options: NoOptions; result: null };
  setMode: { options: { mode: TrackingModeName } & TrackingModeParameters; result: null };
  getCurrentLocation: { options: NoOptions; result: CurrentLocation | null };
  getLocations: { options: GetLocationsOptions; result: StoredLocation[] };
  getLocationData: { options: NoOptions; result: LocationData };
  requestLocationUpdate: { options: NoOptions; result: null };
  startActiveTracking: { options: StartActiveTrackingOptions; result: null };
  flush: { options: NoOptions; result: UploadResult };
  clearLocations: { options: NoOptions; result: ClearLocationsResult };
  checkPermissions: { options: NoOptions; result: PermissionStatus };
  requestPermission: { options: { kind: PermissionKind }; result: PermissionStatus };
  locationAction: { options: NoOptions; result: PermissionStatus };
  addRegions: { options: AddRegionsOptions; result: AddRegionsResult };
  setRegions: { options: AddRegionsOptions; result: SetRegionsResult };
  removeRegions: { options: RemoveRegionsOptions; result: null };
  getRegions: { options: NoOptions; result: RegionInfo[] };
  addRegionHere: { options: AddRegionHereOptions; result: RegionHereResult };
  configureNotifications: { options: NotificationOptions; result: NotificationResult };
  markRegion: { options: MarkRegionOptions; result: RegionInfo | null };
}

/** A native method's name. */
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
  /** A flush ended. */
  upload: UploadResult;
  /** A permission's state changed. */
  permission: PermissionStatus;
}

/** A pushed event's name. */
export type WhereaboutsEventName = keyof WhereaboutsEvents;

/** A listener registration; `remove()` stops it. */
export interface WhereaboutsSubscription {
  remove(): Promise<void>;
}

/** Whereabouts as JavaScript uses it; every failed call rejects with a `WhereaboutsError`. */
export interface Whereabouts {
  /** Where uploads go (kept across launches); `{ upload: null }` stops uploading. */
  configure(options: ConfigureOptions): Promise<void>;
  /** The credential uploads present (kept across launches). */
  setAuth(options: AuthOptions): Promise<void>;
  /** Forgets the credential; records wait on the device until the next `setAuth`. */
  signOut(): Promise<void>;
  /** Turns tracking on, in the given mode or the configured one; it stays on across relaunches. */
  start(options?: StartTrackingOptions): Promise<void>;
  /** Turns tracking off. */
  stop(): Promise<void>;
  /** Changes the mode, now and for later launches. */
  setMode(options: { mode: TrackingModeName } & TrackingModeParameters): Promise<void>;
  /** The newest position, or `null`. */
  getCurrentLocation(): Promise<CurrentLocation | null>;
  /** The newest stored records, oldest first; only those waiting for upload unless `includeUploaded`. */
  getLocations(options?: GetLocationsOptions): Promise<StoredLocation[]>;
  /** The snapshot now. */
  getLocationData(): Promise<LocationData>;
  /** Takes one fix now; it arrives as `location` and `locationData` events. */
  requestLocationUpdate(): Promise<void>;
  /** Tracks at full accuracy for a while (tracking must be on). */
  startActiveTracking(options: StartActiveTrackingOptions): Promise<void>;
  /** Uploads pending records now. Rejects with `notConfigured` before `configure`. */
  flush(): Promise<UploadResult>;
  /** Deletes every stored record, uploaded or not. */
  clearLocations(): Promise<ClearLocationsResult>;
  /** Reads both permissions again, and asks for background when the rules allow. */
  checkPermissions(): Promise<PermissionStatus>;
  /**
   * Asks for `location` (foreground, the default) or `backgroundLocation` under the engine's rules
   * (background only once foreground is granted, and not again within two hours of a refusal).
   * When that shows the OS dialog, resolves once the user has answered it, with the answer:
   * `const { granted } = await Whereabouts.requestPermissions()` is the user's choice. At most 30 s
   * after asking, though: iOS reports nothing when the user keeps While Using in the Always dialog,
   * so that answer comes after 30 s, as `backgroundLocation: 'denied'` (a `permission` event brings
   * any later change). When no dialog is shown (already answered, or only Settings can change it),
   * resolves at once with the state now.
   */
  requestPermissions(options?: RequestPermissionsOptions): Promise<PermissionStatus>;
  /**
   * The user started something that needs a position: asks for foreground, or opens Settings. Like
   * `requestPermissions`, resolves once the user has answered the dialog it showed (at most 30 s
   * later), or at once when it showed none.
   */
  locationAction(): Promise<PermissionStatus>;
  /** Adds regions (any number; only the nearest are handed to the OS). */
  addRegions(options: AddRegionsOptions): Promise<AddRegionsResult>;
  /** Replaces every region. */
  setRegions(options: AddRegionsOptions): Promise<SetRegionsResult>;
  /** Removes regions by id; unknown ids are ignored. */
  removeRegions(options: RemoveRegionsOptions): Promise<void>;
  /** Every region, sorted by id, with whether the device is inside. */
  getRegions(): Promise<RegionInfo[]>;
  /** Saves a region centred on a fresh fix, in one call; rejects (saving nothing) when no fix that precise comes in time. */
  addRegionHere(options: AddRegionHereOptions): Promise<RegionHereResult>;
  /** Local notifications on region events, with the app's category and actions; kept across launches. */
  configureNotifications(options: NotificationOptions): Promise<NotificationResult>;
  /** Marks a stored location as a region centred on it (its id is the location's); radius 0 unmarks it. */
  markRegion(options: MarkRegionOptions): Promise<RegionInfo | null>;
  /** Listens to a pushed event. */
  addListener<E extends WhereaboutsEventName>(
    event: E,
    listener: (body: WhereaboutsEvents[E]) => void,
  ): Promise<WhereaboutsSubscription>;
}
