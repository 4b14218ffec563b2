import Foundation

/// A value pushed to JavaScript.
public struct BridgeEvent: Sendable, Equatable {
    /// Which event.
    public let name: BridgeEventName
    /// Its JSON body.
    public let body: Data
}
