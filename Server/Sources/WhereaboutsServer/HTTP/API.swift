import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import WhereaboutsCore

/// The server's routes and what they share: storage, authentication, limits and metrics.
public struct API: Sendable {
    let storage: any TrackStorage
    let settings: ServerSettings
    let authenticator: Authenticator
    let limiter: RateLimiter
    let metrics: ServerMetrics
    let logger: Logger
    /// The time every route reads.
    let clock: EngineClock
    /// Mints the id of each new command for its time.
    let recordIDs: @Sendable (Date) -> UUID
    /// Leaflet and the day page's script, under `/assets/`.
    let assets: PageAssets
    /// The day page's map; `nil` when no tile URL is set.
    let map: DayMap?
    /// The OwnTracks accounts `/pub` has read.
    let ownTracksAccounts = DeviceCache<OwnTracksAccount>()
    /// The OwnTracks accounts MQTT ingest has read, by OwnTracks topic.
    let mqttAccounts = DeviceCache<OwnTracksAccount>()
    /// The token digests the batch API has read.
    let deviceTokens = DeviceCache<Data>()
    /// `storage`'s ``OwnTracksStorage/ownTracksLegacyIDsBefore()``, read once.
    let ownTracksLegacyIDsBefore: Date?
    /// Every location stored through this API, for `/ws/last`.
    let feed = LocationFeed()

    /// Creates the API over `storage`, whose ``OwnTracksStorage/ownTracksLegacyIDsBefore()`` is
    /// `ownTracksLegacyIDsBefore`, telling the time by `clock` and minting the ids of new commands with `recordIDs`.
    public init(
        storage: any TrackStorage, settings: ServerSettings, clock: EngineClock, recordIDs: @escaping @Sendable (Date) -> UUID,
        logger: Logger, ownTracksLegacyIDsBefore: Date?
    ) {
        self.storage = storage
        self.clock = clock
        self.recordIDs = recordIDs
        self.ownTracksLegacyIDsBefore = ownTracksLegacyIDsBefore
        self.settings = settings
        authenticator = Authenticator(storage: storage, adminTokenHash: settings.adminToken.map(Tokens.hash), clock: clock)
        limiter = RateLimiter(rate: settings.rateLimit, burst: settings.rateBurst)
        metrics = ServerMetrics()
        self.logger = logger
        assets = PageAssets(leafletDirectory: settings.leafletDirectory, logger: logger)
        map = settings.tileURL.isEmpty ? nil : DayMap(tileURL: settings.tileURL, attribution: settings.tileAttribution)
    }

    /// Every route, behind the access log and metrics, the method guard and login throttling.
    public func router() -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: AccessLogMiddleware(metrics: metrics, logger: logger))
        router.add(middleware: MethodGuardMiddleware())
        router.add(middleware: NotFoundMiddleware())
        router.add(middleware: HeaderGuardMiddleware())
        router.add(middleware: LoginThrottleMiddleware(settings: settings, clock: clock))
        addIngestRoutes(to: router)
        addOwnTracksRoutes(to: router)
        addRecorderRoutes(to: router)
        addLiveLocationsRoute(to: router)
        addReadRoutes(to: router)
        addPageRoutes(to: router)
        return router
    }

    /// The path's device id, checked for shape.
    func deviceID(_ context: ServerRequestContext) throws -> String {
        let id = context.parameters.get("device") ?? ""
        if let problem = DeviceID.problem(with: id) {
            throw APIError.badRequest("bad_device_id", DeviceID.message(for: id, problem: problem))
        }
        return id
    }

    /// Applies the device's rate limit.
    func admit(_ device: String) async throws {
        if let wait = await limiter.admit(device, now: clock.now()) {
            throw APIError(
                .tooManyRequests, "rate_limited",
                "device \(device) sends more than \(settings.rateLimit) requests per second; retry after \(wait) s",
                retryAfter: wait)
        }
    }

    /// The body, at most ``ServerSettings/maxBodyBytes`` long.
    func body(_ request: Request) async throws -> Data {
        let tooLarge = APIError(
            .contentTooLarge, "body_too_large", "the body is larger than \(settings.maxBodyBytes) bytes; send smaller batches")
        if let length = request.headers[.contentLength].flatMap(Int.init), length > settings.maxBodyBytes { throw tooLarge }
        do {
            let buffer = try await request.body.collect(upTo: settings.maxBodyBytes)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch let malformed as MalformedRequest {
            throw APIError(malformed.status, "unreadable_body", "the body could not be read: \(malformed.message)")
        } catch {
            throw APIError.badRequest(
                "unreadable_body",
                "the body could not be read: its framing is broken (a chunk size or Content-Length that does not match what was sent); send it again"
            )
        }
    }

    /// Decodes JSON, or answers 400 saying why not.
    func decode<T: Decodable>(_ type: T.Type, from data: Data, shape: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            let problem = DecodeProblem(error, in: data)
            throw APIError.badRequest(problem.isSyntax ? "malformed_json" : "invalid_body", "the body: \(problem.reason); send \(shape)")
        }
    }
}
