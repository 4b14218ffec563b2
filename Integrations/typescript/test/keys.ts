// The fields of each answer and event, checked against the TypeScript types by the compiler: a key
// missing here or unknown to the type fails `tsc`. The tests compare them with what the Swift bridge
// recorded, so a field renamed on either side fails.
import type {
  ClearLocationsResult,
  CurrentLocation,
  LocationData,
  PermissionStatus,
  RegionEventBody,
  NotificationResult,
  RegionHereResult,
  RegionInfo,
  ReportItem,
  SetRegionsResult,
  AddRegionsResult,
  StoredLocation,
  UploadResult,
  WhereaboutsEvents,
  WhereaboutsMethods,
} from '../src/index.js';

/** All of `T`'s keys, each once: the compiler refuses a list that misses one. */
function keys<T>() {
  return <K extends (keyof T & string)[]>(...list: K & (Exclude<keyof T, K[number]> extends never ? unknown : never)): string[] =>
    list;
}

export const methods = keys<WhereaboutsMethods>()(
  'configure', 'setAuth', 'signOut', 'startTracking', 'stopTracking', 'setMode', 'getCurrentLocation', 'getLocations',
  'getLocationData', 'requestLocationUpdate', 'startActiveTracking', 'flush', 'clearLocations', 'checkPermissions',
  'requestPermission', 'locationAction', 'addRegions', 'setRegions', 'removeRegions', 'getRegions',
  'addRegionHere', 'configureNotifications',
  'markRegion',
);
export const events = keys<WhereaboutsEvents>()('locationData', 'location', 'region', 'upload', 'permission');

const permission = keys<PermissionStatus>()(
  'location', 'backgroundLocation', 'status', 'granted', 'canAskAgain', 'foregroundPermission', 'backgroundPermission', 'problems',
);
const upload = keys<UploadResult>()('trigger', 'delivered', 'eventsDelivered', 'rejected', 'requests', 'stoppedBy', 'message', 'retryAt');
const locationData = keys<LocationData>()(
  'lastTriedAt', 'lastLocation', 'fence', 'report', 'foregroundPermission', 'backgroundPermission', 'setupProblems',
);

const region = keys<RegionInfo>()(
  'id', 'latitude', 'longitude', 'radius', 'loiteringDelay', 'notifyOnEntry', 'notifyOnExit', 'shape', 'inside',
);

/** The keys of each method's object answer (of each element, for a list). */
export const results: { [method: string]: string[] } = {
  getCurrentLocation: keys<CurrentLocation>()('lat', 'lng', 'timestamp'),
  getLocations: keys<StoredLocation>()('id', 'latitude', 'longitude', 'timestamp', 'accuracy', 'dwell', 'uploaded'),
  getLocationData: locationData,
  flush: upload,
  clearLocations: keys<ClearLocationsResult>()('removed'),
  checkPermissions: permission,
  requestPermission: permission,
  locationAction: permission,
  addRegions: keys<AddRegionsResult>()('added'),
  setRegions: keys<SetRegionsResult>()('count'),
  getRegions: region,
  markRegion: region,
  addRegionHere: keys<RegionHereResult>()('region', 'accuracy', 'timestamp'),
  configureNotifications: keys<NotificationResult>()('enabled', 'allowed'),
};

/** The keys of each event's body. */
export const eventBodies: { [event: string]: string[] } = {
  locationData,
  location: keys<ReportItem>()('id', 'latitude', 'longitude', 'timestamp', 'accuracy', 'dwell'),
  region: keys<RegionEventBody>()('regionId', 'kind', 'timestamp', 'initial', 'latitude', 'longitude'),
  upload,
  permission,
};
