import Foundation

/// What a local notification says about a region event, and whether one is shown at all. The iOS
/// adapter's notifier posts exactly this; every choice (which events are news, what the words are,
/// how repeats and groups are keyed) is made here.
///
/// No notification is made for:
/// - an ``RegionEvent/initial`` event: it reports the state found when monitoring started, not a
///   crossing the user made;
/// - the refresh region (``MonitoredRegion/refreshRegionID``), which is the engine's own and means
///   nothing to the user;
/// - a kind the app did not ask for.
public struct RegionNotificationText: Sendable, Hashable {
    /// The notification request's identifier: the same event always gets the same one, so an event
    /// delivered twice replaces its notification instead of stacking a second.
    public let identifier: String
    /// The thread identifier: the notifications of one region are grouped together.
    public let threadIdentifier: String
    /// The title, for example `Left Home`.
    public let title: String
    /// The body, one sentence.
    public let body: String

    /// The prefix of every identifier and thread identifier, so the app can tell these notifications
    /// from its own.
    public static let identifierPrefix = "whereabouts.region."

    /// The text for `event`, or `nil` when the event is not to be notified (see the type's rules).
    ///
    /// - Parameters:
    ///   - event: the region event.
    ///   - regionName: what the user calls the region; `nil`, empty or blank uses the region's id.
    ///   - kinds: the kinds the app wants notifications for; all three by default.
    public init?(event: RegionEvent, regionName: String? = nil, kinds: Set<RegionEventKind> = Set(RegionEventKind.allCases)) {
        guard !event.initial, event.regionID != MonitoredRegion.refreshRegionID, kinds.contains(event.kind) else { return nil }
        let trimmed = regionName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let name = trimmed.isEmpty ? event.regionID : trimmed
        switch event.kind {
        case .enter:
            title = "Arrived at \(name)"
            body = "You entered the area “\(name)”."
        case .exit:
            title = "Left \(name)"
            body = "You left the area “\(name)”."
        case .dwell:
            title = "Staying at \(name)"
            body = "You have stayed in the area “\(name)” for the time set for it."
        }
        threadIdentifier = Self.identifierPrefix + event.regionID
        identifier = "\(threadIdentifier).\(event.kind.rawValue).\(JavaScriptTime.milliseconds(event.timestamp))"
    }
}
