import Foundation
import WhereaboutsCore

extension Bridge {
    /// The events to push to JavaScript: `locationData` on every snapshot change, `location` for
    /// every stored record, `region` for every region event, `upload` for every finished flush and
    /// `permission` when a permission's state (``BridgeMethod/checkPermissions``' `location` or
    /// `backgroundLocation`) changes. The stream ends when the engine shuts down.
    public func events() -> AsyncStream<BridgeEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: BridgeEvent.self, bufferingPolicy: .bufferingNewest(256))
        let snapshots = engine.snapshots()
        let locations = engine.locations()
        let regionEvents = engine.regionEvents()
        let uploads = engine.uploads()
        let permissionSnapshots = engine.snapshots()
        let relay = Task { [engine] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await Self.relay(snapshots, as: .locationData, to: continuation) { $0 } }
                group.addTask { await Self.relay(locations, as: .location, to: continuation) { LocationData.ReportItem(record: $0) } }
                group.addTask { await Self.relay(regionEvents, as: .region, to: continuation) { RegionEventValue($0) } }
                group.addTask { await Self.relay(uploads, as: .upload, to: continuation) { FlushValue($0) } }
                group.addTask { await Self.relayPermissions(of: engine, on: permissionSnapshots, to: continuation) }
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

    /// Pushes `permission` each time a snapshot shows a permission state other than the last one pushed.
    private static func relayPermissions(
        of engine: LocationEngine, on snapshots: AsyncStream<LocationData>, to continuation: AsyncStream<BridgeEvent>.Continuation
    ) async {
        let states = { (data: LocationData) in [PermissionState(data.foregroundPermission), PermissionState(data.backgroundPermission)] }
        var last = states(await engine.snapshot())
        for await data in snapshots where states(data) != last {
            last = states(data)
            let value = PermissionsValue(await engine.permissions, problems: await engine.permissionProblems)
            if let body = try? BridgeJSON.encode(value) { continuation.yield(BridgeEvent(name: .permission, body: body)) }
        }
    }
}
