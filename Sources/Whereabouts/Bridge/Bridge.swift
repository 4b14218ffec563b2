import Foundation
import WhereaboutsCore

/// The JSON-in / JSON-out face of a ``LocationEngine`` for React Native and Capacitor: a method name
/// and its arguments give a result or a ``BridgeError`` (`{code, message}`), and engine changes are
/// pushed as named events. The platform glue (a `CAPPlugin`, an `RCTEventEmitter`) only converts
/// between its dictionaries and JSON; every rule stays here and in the engine.
///
/// Malformed arguments never crash: they get `invalidArguments` with a message naming the method,
/// the field and the shape to send.
public final class Bridge: Sendable {
    /// The engine the calls go to.
    public let engine: LocationEngine

    /// Creates a bridge over `engine`.
    public init(engine: LocationEngine) { self.engine = engine }

    /// Calls `method` with its arguments as a JSON object (`nil` or empty data for none).
    public func call(_ method: String, arguments: Data?) async -> BridgeReply {
        guard let known = BridgeMethod(rawValue: method) else { return .failure(.unknownMethod(method)) }
        let body = arguments.flatMap { $0.isEmpty ? nil : $0 } ?? Data("{}".utf8)
        do {
            return .success(try await dispatch(known, body))
        } catch let error as BridgeError {
            return .failure(error)
        } catch let error as EngineError {
            return .failure(BridgeError(error, method: known))
        } catch let error as ArgumentProblem {
            return .failure(.invalidArguments(known, error.description))
        } catch let error as ValidationError {
            return .failure(.invalidArguments(known, error.description))
        } catch {
            return .failure(.invalidArguments(known, DecodeProblem(error).reason))
        }
    }

    /// Calls `method` with arguments as JSON text and answers JSON text (``BridgeReply/json``).
    public func call(_ method: String, json: String?) async -> String {
        String(decoding: await call(method, arguments: json.map { Data($0.utf8) }).json, as: UTF8.self)
    }

    /// The events to push to JavaScript: `locationData` on every snapshot change, `location` for
    /// every stored record, `region` for every region event. The stream ends when the engine shuts down.
    public func events() -> AsyncStream<BridgeEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: BridgeEvent.self, bufferingPolicy: .bufferingNewest(256))
        let snapshots = engine.snapshots(), locations = engine.locations(), regionEvents = engine.regionEvents()
        let relay = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await Self.relay(snapshots, as: .locationData, to: continuation) { $0 } }
                group.addTask { await Self.relay(locations, as: .location, to: continuation) { LocationData.ReportItem(record: $0) } }
                group.addTask { await Self.relay(regionEvents, as: .region, to: continuation) { RegionEventValue($0) } }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in relay.cancel() }
        return stream
    }

    private static func relay<Element: Sendable, Body: Encodable>(
        _ source: AsyncStream<Element>, as name: BridgeEventName, to continuation: AsyncStream<BridgeEvent>.Continuation,
        _ body: (Element) -> Body
    ) async {
        for await element in source {
            if let data = try? BridgeJSON.encode(body(element)) { continuation.yield(BridgeEvent(name: name, body: data)) }
        }
    }

    private func dispatch(_ method: BridgeMethod, _ body: Data) async throws -> Data {
        guard (try? JSONSerialization.jsonObject(with: body)) is [String: Any] else {
            throw BridgeError.invalidArguments(method, "the arguments are not a JSON object")
        }
        switch method {
        case .startTracking:
            let mode = try BridgeJSON.decode(StartTrackingArguments.self, from: body).trackingMode()
            try await engine.start(mode: mode)
            return Self.null
        case .stopTracking:
            try await engine.stop()
            return Self.null
        case .getCurrentLocation:
            return try await engine.currentLocation().map { try BridgeJSON.encode(CurrentLocationValue($0)) } ?? Self.null
        case .getLocations:
            return try BridgeJSON.encode(try await engine.pendingLocations().map(LocationData.ReportItem.init(record:)))
        case .getLocationData:
            return try BridgeJSON.encode(await engine.snapshot())
        case .requestLocationUpdate:
            try await engine.requestLocationUpdate()
            return Self.null
        case .startActiveTracking:
            let minutes = try BridgeJSON.decode(ActiveTrackingArguments.self, from: body).minutes
            guard minutes.isFinite, (1...1440).contains(minutes) else {
                throw BridgeError.invalidArguments(method, "minutes \(minutes) is not in 1...1440")
            }
            try await engine.startActiveTracking(for: minutes * 60)
            return Self.null
        case .checkPermissions:
            try await engine.checkPermissions()
            return try await permissionsValue()
        case .requestPermission:
            try await engine.requestPermission(BridgeJSON.decode(PermissionArguments.self, from: body).permissionKind())
            return try await permissionsValue()
        case .locationAction:
            try await engine.locationActionStarted()
            return try await permissionsValue()
        case .addRegions:
            let regions = try BridgeJSON.decode(AddRegionsArguments.self, from: body).validated()
            try await engine.addRegions(regions)
            return try BridgeJSON.encode(["added": regions.count])
        case .removeRegions:
            try await engine.removeRegions(BridgeJSON.decode(RemoveRegionsArguments.self, from: body).ids)
            return Self.null
        case .getRegions:
            return try BridgeJSON.encode(try await engine.regions().map(RegionValue.init))
        }
    }

    private func permissionsValue() async throws -> Data {
        try BridgeJSON.encode(PermissionsValue(await engine.permissions, problems: await engine.permissionProblems))
    }

    private static let null = Data("null".utf8)
}
