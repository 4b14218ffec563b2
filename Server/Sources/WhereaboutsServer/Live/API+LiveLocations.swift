import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

extension API {
    /// The path of the live feed, as the OwnTracks Recorder serves it to OwnTracks Frontend.
    static let liveLocationsPath = "/ws/last"

    /// Decides the WebSocket upgrade of `/ws/last`: a request that logs in as for the Recorder API
    /// (``Authenticator/recorderPrincipal(_:)``) is upgraded to ``streamLocations(to:principal:inbound:)``.
    /// Anything else is answered as HTTP: another path by its route, and `/ws/last` without a valid
    /// login by ``addLiveLocationsRoute(to:)`` (401 saying how to log in, through the login throttle).
    func shouldUpgrade(_ head: HTTPRequest, channel: any Channel, logger: Logger) async throws
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>
    {
        guard head.path?.split(separator: "?").first.map(String.init) == Self.liveLocationsPath else { return .dontUpgrade }
        let login: @Sendable () async throws -> Principal = {
            try await authenticator.recorderPrincipal(Request(head: head, body: .init(buffer: ByteBuffer())))
        }
        guard let principal = try? await login() else { return .dontUpgrade }
        return .upgrade([:]) { inbound, outbound, _ in
            let access = LiveAccess(visible: try await visibleDevices(principal)) {
                let now = try await login()
                guard now == principal else { throw APIError.unauthorized("the login now names another device") }
                return try await visibleDevices(now)
            }
            try await streamLocations(to: outbound, access: access, inbound: inbound)
        }
    }

    /// The profiles `principal` may read, by device.
    private func visibleDevices(_ principal: Principal) async throws -> [String: OwnTracksProfile] {
        Dictionary(try await visibleProfiles(principal).map { ($0.device, $0) }) { first, _ in first }
    }

    /// `/ws/last` asked without an upgrade or without a valid login: 401 naming the logins, else 426.
    func addLiveLocationsRoute(to router: Router<ServerRequestContext>) {
        router.get(RouterPath(stringLiteral: Self.liveLocationsPath)) { request, _ -> Response in
            _ = try await authenticator.recorderPrincipal(request)
            throw APIError(
                .upgradeRequired, "websocket_required",
                "\(Self.liveLocationsPath) is a WebSocket: connect with ws:// (Upgrade: websocket), send LAST, and read each new location")
        }
    }

    /// The live feed of one WebSocket: each location stored from now on of a device `access` may
    /// read, as a `_type: "location"` object of `/api/0/last`; a `LAST` message from the client
    /// also sends each such device's last location. Updates published while the client is slow
    /// beyond ``LocationFeed/backlog`` are dropped, oldest first. Once the login no longer holds,
    /// the feed closes (1008, policy violation) instead of sending.
    private func streamLocations(to outbound: WebSocketOutboundWriter, access: LiveAccess, inbound: WebSocketInboundStream) async throws {
        let updates = feed.subscribe()
        /// What the login may read now; `nil` once the feed is closed for a login that ended.
        @Sendable func readable() async throws -> [String: OwnTracksProfile]? {
            guard let visible = await access.current() else {
                try await outbound.close(.policyViolation, reason: "the login ended (its token was rotated or removed); log in again")
                return nil
            }
            return visible
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await message in inbound.messages(maxSize: 4096) {
                    guard case .text(let text) = message, text.trimmingCharacters(in: .whitespacesAndNewlines) == "LAST" else { continue }
                    guard let visible = try await readable() else { return }
                    for profile in visible.values.sorted(by: { $0.device < $1.device }) {
                        guard
                            let last = try await storage.ownTracksLocations(
                                device: profile.device, from: .distantPast, to: .distantFuture, limit: 1
                            ).first
                        else { continue }
                        try await outbound.writeTextMessage(Self.liveMessage(try await lastObject(last, profile: profile)))
                    }
                }
            }
            group.addTask {
                for await update in updates {
                    guard let visible = try await readable() else { return }
                    guard let profile = visible[update.device] else { continue }
                    for location in update.locations {
                        try await outbound.writeTextMessage(Self.liveMessage(try await lastObject(location, profile: profile)))
                    }
                }
            }
            // The client closed (the inbound stream ended): the feed's task ends with it.
            try await group.next()
            group.cancelAll()
        }
    }

    /// A location object sent on the live feed, `_type` set to `location` as Frontend expects.
    private static func liveMessage(_ object: [String: Any]) throws -> String {
        var object = object
        object["_type"] = "location"
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
