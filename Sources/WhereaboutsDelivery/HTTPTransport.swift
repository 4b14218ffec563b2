import Foundation
import WhereaboutsCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends an ``OutgoingRequest`` and returns the answer; throws when no answer arrives (refused
/// connection, dropped connection, timeout).
public protocol HTTPTransport: Sendable {
    /// Performs the request, giving up after `timeout` seconds.
    func send(_ request: OutgoingRequest, timeout: TimeInterval) async throws -> HTTPReply
}
