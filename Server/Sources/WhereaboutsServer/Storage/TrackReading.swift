import Foundation
import WhereaboutsCore

/// The reads of the API, the pages and the exports: tracks, events, regions and kept messages.
public protocol TrackReading: Sendable {
    /// The newest location by timestamp.
    func last(device: String) async throws -> LocationRecord?
    /// Locations with `from <= timestamp < to`, sorted by timestamp, handed over in pages so a
    /// long history is never held in memory at once.
    func history(device: String, from: Date, to: Date, page: Int, _ body: ([LocationRecord]) async throws -> Void) async throws
    /// Events with `from <= timestamp < to`, sorted by timestamp.
    func events(device: String, from: Date, to: Date) async throws -> [ReceivedEvent]
    /// The regions the device defined, by id.
    func regions(device: String) async throws -> [WireRegion]
    /// The device's kept messages, oldest first.
    func messages(device: String) async throws -> [DeviceMessage]
}
