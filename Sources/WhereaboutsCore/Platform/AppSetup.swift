import Foundation

/// What the app's Info.plist declares that Whereabouts needs on iOS, and the features it must leave off
/// when a declaration is missing. iOS ends an app that starts motion activity without
/// `NSMotionUsageDescription`, sets `allowsBackgroundLocationUpdates` without the `location` background
/// mode, or registers a BGTaskScheduler task whose identifier is not permitted; it silently ignores a
/// permission request without its usage string. The adapter reads the Info.plist once at start and asks
/// these questions before each of those calls, so a missing key costs a feature, never the app.
public struct AppSetup: Sendable, Hashable {
    /// `NSLocationWhenInUseUsageDescription`.
    public static let whenInUseKey = "NSLocationWhenInUseUsageDescription"
    /// `NSLocationAlwaysAndWhenInUseUsageDescription`.
    public static let alwaysKey = "NSLocationAlwaysAndWhenInUseUsageDescription"
    /// `NSMotionUsageDescription`.
    public static let motionKey = "NSMotionUsageDescription"
    /// `UIBackgroundModes`.
    public static let backgroundModesKey = "UIBackgroundModes"
    /// `BGTaskSchedulerPermittedIdentifiers`.
    public static let permittedTasksKey = "BGTaskSchedulerPermittedIdentifiers"

    /// The usage-description keys present with a non-blank string.
    public let usageDescriptions: Set<String>
    /// `UIBackgroundModes`.
    public let backgroundModes: Set<String>
    /// `BGTaskSchedulerPermittedIdentifiers`.
    public let permittedTaskIdentifiers: Set<String>

    /// Creates the set-up from the values already read.
    public init(usageDescriptions: Set<String>, backgroundModes: Set<String>, permittedTaskIdentifiers: Set<String>) {
        self.usageDescriptions = usageDescriptions
        self.backgroundModes = backgroundModes
        self.permittedTaskIdentifiers = permittedTaskIdentifiers
    }

    /// Reads the set-up through `value`, which returns an Info.plist entry (`Bundle.object(forInfoDictionaryKey:)`).
    /// A usage string that is not a string or is blank counts as missing, as iOS counts it.
    public init(reading value: (String) -> Any?) {
        let strings = [Self.whenInUseKey, Self.alwaysKey, Self.motionKey].filter {
            !((value($0) as? String)?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true)
        }
        self.init(
            usageDescriptions: Set(strings), backgroundModes: Set(value(Self.backgroundModesKey) as? [String] ?? []),
            permittedTaskIdentifiers: Set(value(Self.permittedTasksKey) as? [String] ?? []))
    }

    /// Everything Whereabouts uses is declared, with `refreshTask` as the permitted task identifier.
    public static func complete(refreshTask: String = "whereabouts.refresh") -> AppSetup {
        AppSetup(
            usageDescriptions: [whenInUseKey, alwaysKey, motionKey], backgroundModes: ["location", "fetch"],
            permittedTaskIdentifiers: [refreshTask])
    }

    /// Whether motion activity may start.
    public var allowsMotion: Bool { usageDescriptions.contains(Self.motionKey) }
    /// Whether the foreground permission may be asked for.
    public var allowsWhenInUseRequest: Bool { usageDescriptions.contains(Self.whenInUseKey) }
    /// Whether the Always permission may be asked for (iOS needs both strings for it).
    public var allowsAlwaysRequest: Bool { allowsWhenInUseRequest && usageDescriptions.contains(Self.alwaysKey) }
    /// Whether standard updates may continue in the background (`allowsBackgroundLocationUpdates`).
    public var allowsBackgroundUpdates: Bool { backgroundModes.contains("location") }

    /// Whether a BGTaskScheduler refresh task named `identifier` may be registered and submitted.
    public func allowsRefresh(_ identifier: String) -> Bool {
        permittedTaskIdentifiers.contains(identifier) && backgroundModes.contains("fetch")
    }

    /// Every problem, in a fixed order; `refreshTask` is the identifier the app's refresh task uses, or
    /// `nil` when it uses none.
    public func problems(refreshTask: String? = nil) -> [SetupProblem] {
        let checks: [(missing: Bool, code: SetupProblem.Code, key: String, message: String)] = [
            (
                !allowsWhenInUseRequest, .whenInUseUsageDescriptionMissing, Self.whenInUseKey,
                "Info.plist has no \(Self.whenInUseKey), so iOS never shows the location dialog and no position can be taken; add the "
                    + "key with a sentence telling the user why the app uses their location."
            ),
            (
                !usageDescriptions.contains(Self.alwaysKey), .alwaysUsageDescriptionMissing, Self.alwaysKey,
                "Info.plist has no \(Self.alwaysKey), so background location (Always) is never asked for; add the key with a sentence "
                    + "telling the user why the app uses their location in the background."
            ),
            (
                !allowsMotion, .motionUsageDescriptionMissing, Self.motionKey,
                "Info.plist has no \(Self.motionKey), so motion activity is off (iOS would end the app) and stops are judged from "
                    + "positions alone; add the key to let the adaptive modes turn GPS off sooner."
            ),
            (
                !allowsBackgroundUpdates, .locationBackgroundModeMissing, Self.backgroundModesKey,
                "\(Self.backgroundModesKey) in Info.plist lacks 'location', so continuous updates stop when the app leaves the screen "
                    + "(regions, visits and significant changes still wake it); add 'location' to the list."
            ),
            (
                refreshTask.map { !allowsRefresh($0) } ?? false, .refreshTaskNotPermitted, Self.permittedTasksKey,
                "Background refresh is off: Info.plist must list '\(refreshTask ?? "")' under \(Self.permittedTasksKey) and 'fetch' "
                    + "under \(Self.backgroundModesKey)."
            ),
        ]
        return checks.filter(\.missing).map { SetupProblem(code: $0.code, key: $0.key, message: $0.message) }
    }
}
