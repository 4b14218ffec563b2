import Foundation
import WhereaboutsCore

/// Everything the test server received and the faults it still has to play.
public actor TestServerState {
    /// Locations by id, as stored (a resend replaces what was stored, a longer dwell or a finer
    /// position, and never adds a copy).
    public private(set) var locations: [String: WireLocation] = [:]
    /// Location ids in the order they arrived, resends included.
    public private(set) var arrivals: [String] = []
    /// How many times each id arrived (1 = sent once; 2+ = resent and recognised as duplicate).
    public private(set) var receipts: [String: Int] = [:]
    /// Requests received per path kind.
    public private(set) var requests = 0
    /// Region events by id.
    public private(set) var events: [String: WireEvent] = [:]
    /// OwnTracks messages by `_id`.
    public private(set) var ownTracks: [String: [String: String]] = [:]
    /// Firestore documents by path, with the raw body last written.
    public private(set) var documents: [String: Data] = [:]
    /// Largest batch accepted; bigger ones get 413.
    public var maxBatch: Int?
    /// Bearer tokens accepted; `nil` accepts any request.
    public var validTokens: Set<String>?
    /// Basic credentials accepted on `/pub` as `user:password`; `nil` accepts any.
    public var basicUsers: Set<String>?
    /// Refresh tokens the token endpoint accepts.
    public var refreshTokens: Set<String> = []
    /// Command ids the device acknowledged, in order.
    public private(set) var acknowledged: [String] = []
    private var faults: [Fault] = []
    private var tokenFaults: [Fault] = []
    private var commands: [DeviceCommand] = []
    private var commandsQueued = 0
    private var issued = 0

    /// Creates an empty state.
    public init() {}

    /// Scripts faults for the next requests, in order.
    public func script(_ faults: [Fault]) { self.faults += faults }
    /// Scripts faults for the next requests to the token endpoint (`/v1/token`), in order; they
    /// count apart from the others.
    public func scriptTokenFaults(_ faults: [Fault]) { tokenFaults += faults }
    /// Queues commands, each with a new id (`command-1`, `command-2`, …): every batch answer carries
    /// them until the device acknowledges them.
    public func queue(_ commands: [ServerCommand]) {
        for command in commands {
            commandsQueued += 1
            self.commands.append(DeviceCommand(id: "command-\(commandsQueued)", command: command))
        }
    }
    /// Sets the 413 limit.
    public func setMaxBatch(_ value: Int?) { maxBatch = value }
    /// Sets the accepted bearer tokens.
    public func setValidTokens(_ tokens: Set<String>?) { validTokens = tokens }
    /// Sets the accepted Basic credentials.
    public func setBasicUsers(_ users: Set<String>?) { basicUsers = users }
    /// Sets the accepted refresh tokens.
    public func setRefreshTokens(_ tokens: Set<String>) { refreshTokens = tokens }

    func nextTokenFault() -> Fault? {
        tokenFaults.isEmpty ? nil : tokenFaults.removeFirst()
    }

    func nextFault() -> Fault? {
        requests += 1
        return faults.isEmpty ? nil : faults.removeFirst()
    }

    /// Forgets the commands the device acknowledged and returns those it has not.
    func commands(acknowledging ids: [String]) -> [DeviceCommand] {
        acknowledged += ids
        commands.removeAll { ids.contains($0.id) }
        return commands
    }

    /// Takes every queued command (OwnTracks answers carry commands once: the app has no acknowledgements).
    func takeCommands() -> [ServerCommand] {
        defer { commands.removeAll() }
        return commands.map(\.command)
    }

    /// Stores a batch; returns the reply.
    func store(_ batch: LocationBatch, now: Date) -> BatchReply {
        var reply = BatchReply(accepted: 0, duplicate: 0, rejected: [], commands: [])
        for (index, item) in batch.locations.enumerated() {
            do {
                _ = try item.validated(now: now)
            } catch {
                reply.rejected.append(ItemRejection(index: index, reason: error.description))
                continue
            }
            let key = item.id.lowercased()
            receipts[key, default: 0] += 1
            arrivals.append(key)
            if locations[key] == nil { reply.accepted += 1 } else { reply.duplicate += 1 }
            locations[key] = item
        }
        return reply
    }

    /// Stores region events; a known id is a duplicate.
    func store(_ batch: EventBatch) -> BatchReply {
        var reply = BatchReply(accepted: 0, duplicate: 0, rejected: [], commands: [])
        for item in batch.events {
            let key = item.id.lowercased()
            if events[key] == nil { reply.accepted += 1 } else { reply.duplicate += 1 }
            events[key] = item
        }
        return reply
    }

    func storeOwnTracks(_ message: [String: String], id: String) {
        receipts[id, default: 0] += 1
        ownTracks[id] = message
    }

    func storeDocument(_ path: String, body: Data) {
        receipts[path, default: 0] += 1
        documents[path] = body
    }

    func refresh(_ token: String) -> String? {
        guard refreshTokens.contains(token) else { return nil }
        issued += 1
        let idToken = "id-token-\(issued)"
        validTokens = (validTokens ?? []).union([idToken])
        return idToken
    }
}
