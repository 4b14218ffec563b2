import Foundation
import HTTPTypes
import Hummingbird
import WhereaboutsCore

extension API {
    /// `POST /pub`: OwnTracks HTTP mode. The device is the Basic-auth user (password: its token), or
    /// `X-Limit-D` with a Bearer token. An `encrypted` message is opened with the device's key first.
    /// Stores `_type` location (every field kept), transition, waypoint and waypoints as records, and
    /// card, lwt and status as they came; refuses every other type (``OwnTracksParser/kind(of:)``), so
    /// a 200 always means stored. An empty body (the app sends one to refresh its friends) stores
    /// nothing and gets the same answer. Answers, as the Recorder does, with the last `location` and `card` of
    /// each device in the device's friends group and its `cmd` messages, the whole array encrypted
    /// when the device has a key.
    func addOwnTracksRoutes(to router: Router<ServerRequestContext>) {
        router.post("/pub") { request, context -> Response in
            let (device, token) = ownTracksIdentity(request)
            guard let device else {
                throw APIError.unauthorized(
                    "OwnTracks HTTP mode needs Basic auth (user = device id, password = device token) or X-Limit-D with a Bearer token")
            }
            let (account, cached) = try await ownTracksAccount(device: device, token: token, useCache: true)
            return try await answerWrite(
                request, device: device, credential: account, cached: cached, cache: ownTracksAccounts,
                credentialName: "token or OwnTracks profile", payload: "message",
                reauthenticate: { try await ownTracksAccount(device: device, token: token, useCache: false).0 }, holds: holds
            ) { data, account, cached in
                try await publish(data, account: account, cached: cached)
            }
        }
    }

    /// The device's account when `token` is its token, as ``credential(device:token:in:useCache:tokenHash:read:)`` finds it.
    private func ownTracksAccount(device: String, token: String?, useCache: Bool) async throws -> (OwnTracksAccount, cached: Bool) {
        try await credential(
            device: device, token: token, in: ownTracksAccounts, useCache: useCache, tokenHash: \.tokenHash,
            read: storage.ownTracksAccount(device:))
    }

    /// Handles one `/pub` body for `account`, answering with the friends' messages and due commands.
    /// An account from the cache (`cached`) is confirmed before anything is stored or taken: by the
    /// location's own transaction, else by reading it again (and the route confirms it before
    /// answering with any other error this throws).
    /// - Throws: ``CredentialChanged``, having stored and taken nothing, when it no longer holds.
    private func publish(_ data: Data, account: OwnTracksAccount, cached: Bool) async throws -> Response {
        let profile = account.profile
        // Friends are read before the message is stored: storing a location takes the device's due
        // commands out of the queue, and nothing that can fail may come between that and the answer.
        var answer = try await friends(of: profile)
        var commands: [ServerCommand]?
        if !data.allSatisfy(OwnTracksParser.isSpace) {
            let (message, text, kind) = try Self.open(data, profile: profile)
            try await OwnTracksParser.checkTopic(of: message, profile: profile, owner: storage.ownTracksProfile(topic:))
            if cached, kind != .location { try await confirm(account) }
            commands = try await store(message, text: text, kind: kind, account: account)
        } else if cached {
            try await confirm(account)
        }
        let due = if let commands { commands } else { try await storage.takeCommands(device: profile.device, at: clock.now()) }
        for command in due {
            answer.append(try JSONSerialization.jsonObject(with: JSONEncoder().encode(OwnTracksWire.Command(command))))
        }
        guard let key = profile.key else { return RecorderObjects.response(answer) }
        let plaintext = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes])
        return RecorderObjects.response(["_type": "encrypted", "data": OwnTracksSecretBox(passphrase: key).seal(plaintext)])
    }

    /// One OwnTracks message of `profile`'s device as it came (over `/pub` or MQTT): the message,
    /// opened with the device's key when it is `encrypted`, the JSON text it is kept as, and its kind.
    /// - Throws: ``APIError`` for a message that is no JSON object, cannot be opened or is of a type not stored.
    static func open(_ data: Data, profile: OwnTracksProfile) throws -> (message: [String: Any], text: String, kind: OwnTracksParser.Kind) {
        guard var message = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw APIError.badRequest(
                "malformed_json", "the body is not a JSON object; send one OwnTracks message such as {\"_type\":\"location\",…}")
        }
        var text: String
        if message["_type"] as? String == "encrypted" {
            (message, text) = try OwnTracksParser.decrypted(message, profile: profile)
        } else {
            text = OwnTracksParser.asReceived(data, message: message)
        }
        return (message, text, try OwnTracksParser.kind(of: message))
    }

    /// Whether `account` is still its device's stored account (read again).
    func holds(_ account: OwnTracksAccount) async throws -> Bool {
        try await storage.ownTracksAccount(device: account.profile.device) == account
    }

    /// Reads `account`'s device's account again.
    /// - Throws: ``CredentialChanged`` when it is no longer `account`.
    func confirm(_ account: OwnTracksAccount) async throws {
        guard try await holds(account) else { throw CredentialChanged(device: account.profile.device) }
    }

    /// Stores one (decrypted) message of `kind`, kept as `text`, the JSON it came as. A location's OwnTracks fields go in before the
    /// location, so the location is never readable without them; a location's write also takes the
    /// device's due commands, which it returns (`nil`: they are still to be taken).
    /// - Throws: ``APIError`` 422 for a message the database refuses for good (``UnstorableData``):
    ///   sent again, it would fail again, so it is refused as a bad message is, never answered 500.
    func store(_ message: [String: Any], text: String, kind: OwnTracksParser.Kind, account: OwnTracksAccount) async throws
        -> [ServerCommand]?
    {
        do {
            return try await write(message, text: text, kind: kind, account: account)
        } catch {
            guard let reason = UnstorableData.reason(error) else { throw error }
            throw APIError(
                .unprocessableContent, "unstorable_message",
                "the \(kind.rawValue) message was not stored, and sending it again will not change that: \(reason); correct the value or leave the message out"
            )
        }
    }

    /// ``store(_:text:kind:account:)`` without the answer to a refusal of the data.
    private func write(_ message: [String: Any], text: String, kind: OwnTracksParser.Kind, account: OwnTracksAccount) async throws
        -> [ServerCommand]?
    {
        let device = account.profile.device
        let now = clock.now()
        switch kind {
        case .location:
            let record = try OwnTracksParser.location(message, device: device, now: now, legacyIDsBefore: ownTracksLegacyIDsBefore)
            let fields = OwnTracksParser.fields(message, text: text)
            let (counts, commands) = try await storage.ingestOwnTracksTakingCommands(record, fields: fields, account: account, at: now)
            metrics.countIngest(accepted: counts.accepted, duplicate: counts.duplicate, rejected: 0)
            feed.publish(device: device, [OwnTracksLocation(record: record, fields: fields, receivedAt: now)])
            return commands
        case .transition:
            let event = try OwnTracksParser.transition(message, device: device, now: now)
            metrics.countEvents(try await storage.ingest([event], device: device, at: now).accepted)
        case .waypoint:
            try await storage.saveRegions([try OwnTracksParser.waypoint(message)], device: device, at: now)
        case .waypoints:
            try await storage.saveRegions(try OwnTracksParser.waypoints(message), device: device, at: now)
        case .card, .lwt, .status:
            try await storage.saveMessage(kind.rawValue, body: text, device: device, at: now)
        }
        return nil
    }

    /// The `card` and last `location` of every other device in `profile`'s friends group that has a location.
    private func friends(of profile: OwnTracksProfile) async throws -> [Any] {
        guard let group = profile.group else { return [] }
        var messages: [Any] = []
        for friend in try await storage.ownTracksProfiles(group: group) where friend.device != profile.device {
            guard
                let last = try await storage.ownTracksLocations(device: friend.device, from: .distantPast, to: .distantFuture, limit: 1)
                    .first
            else { continue }
            let card = try await storage.lastMessage("card", device: friend.device)
            messages += RecorderObjects.friend(last, card: card, profile: friend)
        }
        return messages
    }

    private func ownTracksIdentity(_ request: Request) -> (device: String?, token: String?) {
        if case (let user, let password)? = Authenticator.basic(request) { return (user, password) }
        let device = request.headers[HTTPField.Name("X-Limit-D")!] ?? request.uri.queryParameters.get("d")
        return (device, Authenticator.bearer(request))
    }
}
