// The Expo config plugin: `"plugins": [["@whereabouts/react-native", { ... }]]` in app.json. Through
// Expo's Info.plist and Podfile mods, so `expo prebuild --clean` adds everything again, it adds:
// - the usage strings: NSLocationWhenInUseUsageDescription (`whenInUse`), NSLocationAlwaysAndWhenInUse-
//   UsageDescription (`always`, with the `location` background mode; `always: false` leaves both out) and
//   NSMotionUsageDescription (`motion`: the engine reads CMMotionActivityManager, and iOS ends an app that
//   does so without the key; `motion: false` leaves it out);
// - the background refresh (`refreshTaskIdentifier`, by default the bundle id + ".whereabouts.refresh";
//   `false` leaves it out): the `fetch` background mode, the identifier under BGTaskSchedulerPermittedIdentifiers,
//   and under WhereaboutsRefreshTaskIdentifier for the package's launch observer;
// - the engine's pods and GRDB to the Podfile (`whereabouts_pods`, engine/cocoapods.rb).
// Values the app already sets win; running it again adds nothing twice.
const { withInfoPlist, withPodfile } = require('@expo/config-plugins');

const defaults = {
  whenInUse: 'Your location shows where you are.',
  always: 'Your location is recorded in the background so your trips are complete.',
  motion: 'Motion tells when you start and stop moving, so tracking saves battery while you stay put.',
};

const podfileLines = [
  "  # @whereabouts/react-native's engine pods and GRDB (its Expo config plugin adds these lines)",
  "  require File.join(File.dirname(Pod::Executable.execute_command('node', ['-p', 'require.resolve(\"@whereabouts/react-native/package.json\", {paths: [process.argv[1]]})', __dir__]).strip), 'engine', 'cocoapods')",
  '  whereabouts_pods',
];

function union(existing, added) {
  return [...new Set([...(existing || []), ...added])];
}

/** The Info.plist entries the chosen features need, given the options and the app's bundle id. */
function entries(options, bundleIdentifier) {
  const settings = { ...defaults, ...options };
  const refresh =
    settings.refreshTaskIdentifier ?? `${bundleIdentifier || '$(PRODUCT_BUNDLE_IDENTIFIER)'}.whereabouts.refresh`;
  return {
    strings: {
      NSLocationWhenInUseUsageDescription: settings.whenInUse,
      ...(settings.always !== false && { NSLocationAlwaysAndWhenInUseUsageDescription: settings.always }),
      ...(settings.motion !== false && { NSMotionUsageDescription: settings.motion }),
      ...(refresh !== false && { WhereaboutsRefreshTaskIdentifier: refresh }),
    },
    backgroundModes: [...(settings.always !== false ? ['location'] : []), ...(refresh !== false ? ['fetch'] : [])],
    taskIdentifiers: refresh !== false ? [refresh] : [],
  };
}

/** Adds the entries to an Info.plist, keeping the app's own strings and array items. */
function addEntries(infoPlist, { strings, backgroundModes, taskIdentifiers }) {
  const result = { ...strings, ...infoPlist };
  if (backgroundModes.length > 0) result.UIBackgroundModes = union(infoPlist.UIBackgroundModes, backgroundModes);
  if (taskIdentifiers.length > 0) {
    result.BGTaskSchedulerPermittedIdentifiers = union(infoPlist.BGTaskSchedulerPermittedIdentifiers, taskIdentifiers);
  }
  return result;
}

/** Adds `whereabouts_pods` to the Podfile's app target, after `use_expo_modules!`, once. */
function addPods(podfile) {
  if (podfile.includes(podfileLines[1])) return podfile;
  const anchor = podfile.match(/^\s*use_expo_modules!.*$/m);
  if (anchor === null) throw new Error('@whereabouts/react-native: the Podfile has no use_expo_modules! line to add the engine pods after');
  const end = anchor.index + anchor[0].length;
  return `${podfile.slice(0, end)}\n${podfileLines.join('\n')}${podfile.slice(end)}`;
}

module.exports = function withWhereabouts(config, options = {}) {
  const withPlist = withInfoPlist(config, (modConfig) => {
    modConfig.modResults = addEntries(modConfig.modResults, entries(options, modConfig.ios && modConfig.ios.bundleIdentifier));
    return modConfig;
  });
  return withPodfile(withPlist, (modConfig) => {
    modConfig.modResults.contents = addPods(modConfig.modResults.contents);
    return modConfig;
  });
};
