import Foundation
import Hummingbird
import WhereaboutsCore

extension API {
    func addIngestRoutes(to router: Router<ServerRequestContext>) {
        router.post("/v1/devices/:device/locations") { request, context -> Response in
            let device = try deviceID(context)
            let token = Authenticator.bearer(request)
            let (tokenHash, cached) = try await deviceToken(device: device, token: token, useCache: true)
            return try await answerWrite(
                request, device: device, credential: tokenHash, cached: cached, cache: deviceTokens, credentialName: "token",
                payload: "batch", reauthenticate: { try await deviceToken(device: device, token: token, useCache: false).0 },
                holds: { try await storage.tokenHash(device: device) == $0 }
            ) { data, tokenHash, _ in
                try await ingestLocations(data, device: device, tokenHash: tokenHash)
            }
        }
        router.post("/v1/devices/:device/events") { request, context -> Response in
            let device = try deviceID(context)
            _ = try await authenticator.authorize(request, device: device, allowAdmin: false)
            try await admit(device)
            let batch = try decode(LenientEventBatch.self, from: try await body(request), shape: "{\"events\": [...]}")
            try checkSize(batch.events.count, what: "events")
            let now = clock.now()
            let (valid, invalid) = Self.validate(batch.events) { try $0.validated(now: now) }
            if valid.isEmpty, !invalid.isEmpty {
                throw APIError(.unprocessableContent, "invalid_events", "no event in the batch is valid; see items", items: invalid)
            }
            let (written, refused) = try await UnstorableData.writeApart(valid[...]) {
                try await storage.ingest($0, device: device, at: now)
            }
            let rejected = try Self.rejections(invalid, refused, stored: !written.isEmpty, what: "events")
            let counts = written.map(\.result).reduce(IngestCounts(), +)
            metrics.countEvents(counts.accepted)
            return JSONResponse.make(
                .ok, BatchReply(accepted: counts.accepted, duplicate: counts.duplicate, rejected: rejected, commands: []))
        }
    }

    /// The digest of the device's token when `token` is its token, as
    /// ``credential(device:token:in:useCache:tokenHash:read:)`` finds it.
    private func deviceToken(device: String, token: String?, useCache: Bool) async throws -> (Data, cached: Bool) {
        try await credential(
            device: device, token: token, in: deviceTokens, useCache: useCache, tokenHash: { $0 }, read: storage.tokenHash(device:))
    }

    /// Stores one location batch of the device whose token digest is `tokenHash` and answers with the
    /// counts and the device's due commands; the write confirms `tokenHash`.
    /// - Throws: ``CredentialChanged``, having stored and leased nothing, when it is no longer the device's.
    private func ingestLocations(_ data: Data, device: String, tokenHash: Data) async throws -> Response {
        let batch = try locationBatch(data)
        let acknowledged = batch.acknowledged ?? []
        // A batch with no location is an acknowledgement, or else refused as empty.
        if !(batch.locations.isEmpty && !acknowledged.isEmpty) { try checkSize(batch.locations.count, what: "locations") }
        let now = clock.now()
        let (valid, invalid) = Self.validate(batch.locations) { try $0.validated(now: now) }
        if valid.isEmpty, !invalid.isEmpty {
            metrics.countIngest(accepted: 0, duplicate: 0, rejected: invalid.count)
            throw APIError(.unprocessableContent, "invalid_locations", "no location in the batch is valid; see items", items: invalid)
        }
        // Every write acknowledges and leases as one batch's would: acknowledging again forgets
        // nothing more, and a command leased by one write is under lease for the next.
        let (written, refused) = try await UnstorableData.writeApart(valid[...]) {
            try await storage.ingest(
                $0, device: device, tokenHash: tokenHash, acknowledging: acknowledged, at: now, lease: settings.commandLease)
        }
        let counts = written.map(\.result.counts).reduce(IngestCounts(), +)
        metrics.countIngest(accepted: counts.accepted, duplicate: counts.duplicate, rejected: invalid.count + refused.count)
        let rejected = try Self.rejections(invalid, refused, stored: !written.isEmpty, what: "locations")
        feed.publish(device: device, written.flatMap(\.items).map { OwnTracksLocation(record: $0, fields: nil, receivedAt: now) })
        return JSONResponse.make(
            .ok,
            BatchReply(
                accepted: counts.accepted, duplicate: counts.duplicate, rejected: rejected, commands: written.flatMap(\.result.commands)))
    }

    /// A batch's rejected items, in the order of the batch: those found invalid and those the
    /// database refused for good (``UnstorableData/writeApart(_:_:)``).
    /// - Throws: ``APIError`` 422 when the database refused every item it was given (`stored` false).
    private static func rejections(_ invalid: [ItemRejection], _ refused: [ItemRejection], stored: Bool, what: String) throws
        -> [ItemRejection]
    {
        let rejected = (invalid + refused).sorted { $0.index < $1.index }
        guard stored || refused.isEmpty else {
            throw APIError(
                .unprocessableContent, "unstorable_\(what)", "the database refuses every valid item of the batch for good; see items",
                items: rejected)
        }
        return rejected
    }

    /// The batch body: the common shape by ``FastBatchDecoder``, anything else by `JSONDecoder`, whose
    /// errors and per-item rejections are the answer.
    func locationBatch(_ data: Data) throws -> LenientLocationBatch {
        if let batch = FastBatchDecoder.locationBatch(data) { return batch }
        return try decode(LenientLocationBatch.self, from: data, shape: "{\"locations\": [...], \"acknowledged\": [command ids]}")
    }

    /// Splits leniently decoded items into the valid ones and per-item rejections, both with their
    /// index in the batch.
    private static func validate<Wire, Valid>(_ items: [Lenient<Wire>], _ check: (Wire) throws -> Valid)
        -> ([(index: Int, item: Valid)], [ItemRejection])
    {
        var valid: [(index: Int, item: Valid)] = []
        var rejected: [ItemRejection] = []
        for (index, item) in items.enumerated() {
            switch item.result {
            case .success(let wire):
                do { valid.append((index, try check(wire))) } catch { rejected.append(ItemRejection(index: index, reason: "\(error)")) }
            case .failure(let problem): rejected.append(ItemRejection(index: index, reason: problem.reason))
            }
        }
        return (valid, rejected)
    }

    /// A batch holds 1 to ``ServerSettings/maxBatch`` items: an empty one would be acknowledged with
    /// nothing stored.
    private func checkSize(_ count: Int, what: String) throws {
        guard count > 0 else {
            throw APIError.badRequest("empty_batch", "the batch holds no \(what); send 1 to \(settings.maxBatch)")
        }
        guard count <= settings.maxBatch else {
            throw APIError(.contentTooLarge, "batch_too_large", "\(count) \(what) in one batch; send at most \(settings.maxBatch)")
        }
    }
}
