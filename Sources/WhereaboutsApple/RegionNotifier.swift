import Foundation
import Whereabouts
import WhereaboutsCore

/// Optional local notifications on region events: each event of ``Whereabouts/LocationEngine/regionEvents()``
/// that ``WhereaboutsCore/RegionNotificationText`` finds worth telling is posted at once through the
/// notification centre, with the category (and its actions) of the settings in force. Nothing is asked or
/// posted until the app calls ``enable()`` or JavaScript's `configureNotifications` turns them on
/// (``apply(_:)``, through the bridge).
///
/// ```swift
/// let notifier = RegionNotifier(engine: engine, kinds: [.exit]) { id in names[id] }
/// if userWantsNotifications { try await notifier.enable() }
/// ```
///
/// A relaunch for a region crossing starts a new process: call ``enable()`` again at every launch on
/// which the user wants notifications (once the user has answered, it shows no dialog), as early as the
/// engine exists; the automatic set-up does so from the stored settings. ``enable()`` listens to the
/// engine's events before it asks the notification centre, so an event broadcast while that question
/// is still out is held and posted once the answer is yes. When ``enable()`` runs in a task started
/// beside the engine's launch, call ``holdEvents()`` first: the event that relaunched the app may be
/// broadcast before that task runs. iOS shows these notifications while the app is in the background;
/// to show them while it is in the foreground too, the app's `UNUserNotificationCenterDelegate`
/// presents them.
public final class RegionNotifier: RegionNotificationControl, @unchecked Sendable {
    private let engine: LocationEngine
    private let center: any NotificationCentering
    private let regionName: @Sendable (String) -> String?
    private let log: AdapterLog
    private let lock = NSLock()
    private var settings: RegionNotificationSettings
    private var relay: Task<Void, Never>?
    private var held: AsyncStream<RegionEvent>?
    /// How many times ``disable()`` ran: an ``enable()`` whose question was out meanwhile starts nothing.
    private var disables = 0

    /// Creates a notifier on any notification centre; it posts nothing until ``enable()``. Apps use the
    /// convenience initializer on `UNUserNotificationCenter.current()`.
    /// - Parameters:
    ///   - engine: the engine whose region events are notified.
    ///   - center: the notification centre.
    ///   - kinds: the kinds of event to notify; all three by default.
    ///   - log: where a post that failed is logged.
    ///   - regionName: the name the user knows a region by, from its id; `nil` shows the id.
    public init(
        engine: LocationEngine, center: any NotificationCentering, kinds: Set<RegionEventKind> = Set(RegionEventKind.allCases),
        log: AdapterLog = .system, regionName: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.engine = engine
        self.center = center
        self.settings = RegionNotificationSettings(enabled: false, kinds: kinds)
        self.log = log
        self.regionName = regionName
    }

    /// Listens to the engine's region events, then asks for permission to show alerts with sound (iOS
    /// shows its dialog the first time only). Events that come while the question is out are held: posted
    /// when notifications are allowed, dropped when they are not.
    /// A ``disable()`` while the question is out wins: the answer then starts nothing.
    /// - Returns: whether notifications are allowed and on.
    /// - Throws: the notification centre's error when the request could not be made (nothing is posted;
    ///   dropping the subscription ends it).
    @discardableResult
    public func enable() async throws -> Bool {
        let (current, events, disablesBefore) = lock.withLock {
            settings.enabled = true
            defer { held = nil }
            return (settings, relay == nil ? held ?? engine.regionEvents() : nil, disables)
        }
        await center.setCategory(current.categoryIdentifier, actions: current.actions)
        guard let events else { return true }
        let granted = try await center.requestAlertAuthorization()
        guard granted else {
            log(.notifications, .notice, "notifications are not allowed; region events are not notified")
            return false
        }
        return startRelay(events, unlessDisabledSince: disablesBefore)
    }

    /// Starts holding the engine's region events now, for the next ``enable()`` to post: call it before
    /// the engine launches when ``enable()`` will run in a task, so that the event that relaunched the
    /// app is notified even when it is broadcast before that task runs. At most the newest 256 are held;
    /// ``disable()`` drops them.
    public func holdEvents() {
        lock.withLock {
            if relay == nil, held == nil { held = engine.regionEvents() }
        }
    }

    /// Stops posting notifications (the permission stays as the user set it).
    public func disable() {
        lock.withLock {
            settings.enabled = false
            disables += 1
            held = nil
            defer { relay = nil }
            return relay
        }?.cancel()
    }

    /// Takes JavaScript's settings: their kinds and category from the next event on, and ``enable()`` or
    /// ``disable()`` as they say.
    public func apply(_ settings: RegionNotificationSettings) async -> Bool {
        lock.withLock { self.settings = settings }
        guard settings.enabled else {
            disable()
            return false
        }
        do {
            return try await enable()
        } catch {
            log(.notifications, .error, "notifications could not be turned on: \(error)")
            return false
        }
    }

    /// Starts posting `events`, unless ``disable()`` ran after the `disablesBefore`-th time; returns
    /// whether notifications are on.
    private func startRelay(_ events: AsyncStream<RegionEvent>, unlessDisabledSince disablesBefore: Int) -> Bool {
        lock.withLock {
            guard disables == disablesBefore else { return false }
            if relay == nil {
                relay = Task { [weak self] in
                    for await event in events { await self?.post(event) }
                }
            }
            return true
        }
    }

    /// Posts `event` under the settings in force, when they make it news.
    private func post(_ event: RegionEvent) async {
        let current = lock.withLock { settings }
        guard let text = RegionNotificationText(event: event, regionName: regionName(event.regionID), kinds: current.kinds) else { return }
        do {
            try await center.post(
                identifier: text.identifier, title: text.title, body: text.body, threadIdentifier: text.threadIdentifier,
                categoryIdentifier: current.categoryIdentifier)
        } catch {
            log(.notifications, .error, "the notification \(text.identifier) could not be posted: \(error)")
        }
    }
}
