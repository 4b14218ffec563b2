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
// Values the app already sets win, among them its own WhereaboutsRefreshTaskIdentifier, which is then the
// one permitted. What the plugin added is listed under WhereaboutsConfigPluginEntries, so that a prebuild
// without --clean first takes back what the last one added: running it again adds nothing twice, and
// options changed between prebuilds give what `expo prebuild --clean` gives.
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

/** Where the plugin lists what it added to the Info.plist, to take it back at the next prebuild. */
const marker = 'WhereaboutsConfigPluginEntries';

/** The Info.plist entries the chosen features need, given the options, the app's bundle id and its own Info.plist. */
function entries(options, bundleIdentifier, infoPlist) {
  const settings = { ...defaults, ...options };
  const refresh =
    settings.refreshTaskIdentifier === false
      ? false
      : infoPlist.WhereaboutsRefreshTaskIdentifier ??
        settings.refreshTaskIdentifier ??
        `${bundleIdentifier || '$(PRODUCT_BUNDLE_IDENTIFIER)'}.whereabouts.refresh`;
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

/** The arrays the plugin adds items to, by the name of the entries that list them. */
const arrays = { backgroundModes: 'UIBackgroundModes', taskIdentifiers: 'BGTaskSchedulerPermittedIdentifiers' };

/** The Info.plist without what the plugin's last run added (listed under the marker), as the app's own config left it. */
function withoutPrevious(infoPlist) {
  const { [marker]: previous, ...result } = infoPlist;
  if (previous === undefined) return result;
  for (const [key, value] of Object.entries(previous.strings || {})) if (result[key] === value) delete result[key];
  for (const [name, key] of Object.entries(arrays)) {
    if (!Array.isArray(result[key]) || !Array.isArray(previous[name])) continue;
    const kept = result[key].filter((item) => !previous[name].includes(item));
    if (kept.length > 0) result[key] = kept;
    else delete result[key];
  }
  return result;
}

/** Adds the entries to an Info.plist, keeping the app's own strings and array items, and lists what it added. */
function addEntries(infoPlist, entries) {
  const result = { ...infoPlist };
  const added = { strings: {} };
  for (const [key, value] of Object.entries(entries.strings)) {
    if (key in result) continue;
    result[key] = value;
    added.strings[key] = value;
  }
  for (const [name, key] of Object.entries(arrays)) {
    const existing = Array.isArray(result[key]) ? result[key] : [];
    added[name] = entries[name].filter((item) => !existing.includes(item));
    if (added[name].length > 0) result[key] = [...existing, ...added[name]];
  }
  result[marker] = added;
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
    const own = withoutPrevious(modConfig.modResults);
    modConfig.modResults = addEntries(own, entries(options, modConfig.ios && modConfig.ios.bundleIdentifier, own));
    return modConfig;
  });
  return withPodfile(withPlist, (modConfig) => {
    modConfig.modResults.contents = addPods(modConfig.modResults.contents);
    return modConfig;
  });
};
