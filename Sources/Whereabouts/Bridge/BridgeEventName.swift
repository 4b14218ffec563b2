import Foundation

/// The events pushed to JavaScript, by name.
public enum BridgeEventName: String, Sendable, CaseIterable {
    /// The `LocationData` snapshot changed; the body is the whole snapshot.
    case locationData
    /// A record was stored; the body is `{id, latitude, longitude, timestamp, accuracy, …}`.
    case location
    /// A region event happened; the body is `{regionId, kind, timestamp, initial, latitude, longitude}`.
    case region
    /// A flush ended; the body is as ``BridgeMethod/flush`` answers.
    case upload
    /// A permission's state changed; the body is as ``BridgeMethod/checkPermissions`` answers.
    case permission
}
