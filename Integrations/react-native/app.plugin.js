// The Expo config plugin: `"plugins": [["@whereabouts/react-native", { ... }]]` in app.json. It adds
// the Info.plist usage strings and background modes Whereabouts needs, so `expo prebuild` keeps
// them; values the app already sets win. Options: whenInUse and always (the usage strings),
// backgroundModes (default ["location", "fetch"]) and refreshTaskIdentifier (a BGTaskScheduler id).
const defaults = {
  whenInUse: 'Your location shows where you are.',
  always: 'Your location is recorded in the background so your trips are complete.',
  backgroundModes: ['location', 'fetch'],
};

function union(existing, added) {
  return [...new Set([...(existing || []), ...added])];
}

module.exports = function withWhereabouts(config, options = {}) {
  const settings = { ...defaults, ...options };
  const infoPlist = { ...((config.ios && config.ios.infoPlist) || {}) };
  infoPlist.NSLocationWhenInUseUsageDescription = infoPlist.NSLocationWhenInUseUsageDescription || settings.whenInUse;
  infoPlist.NSLocationAlwaysAndWhenInUseUsageDescription =
    infoPlist.NSLocationAlwaysAndWhenInUseUsageDescription || settings.always;
  infoPlist.UIBackgroundModes = union(infoPlist.UIBackgroundModes, settings.backgroundModes);
  if (settings.refreshTaskIdentifier) {
    infoPlist.BGTaskSchedulerPermittedIdentifiers = union(infoPlist.BGTaskSchedulerPermittedIdentifiers, [
      settings.refreshTaskIdentifier,
    ]);
  }
  return { ...config, ios: { ...(config.ios || {}), infoPlist } };
};
