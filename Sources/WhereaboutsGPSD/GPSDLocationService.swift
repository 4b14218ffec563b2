import Logging
import Whereabouts
import WhereaboutsCore

/// A ``Whereabouts/LocationService`` that reads a real GPS receiver through gpsd's JSON protocol over TCP.
///
/// While anything wants positions — standard updates, significant changes, a one-shot request or
/// monitored regions — the service keeps a connection to gpsd, sends
/// `?WATCH={"enable":true,"json":true}` and turns each `TPV` report into a fix with ``GPSDDecoder``.
/// When nothing does (``WhereaboutsCore/LocationRequest/off`` with no regions and no one-shot
/// pending) it sends `?WATCH={"enable":false}` and disconnects.
///
/// Which fixes become ``Whereabouts/LocationServiceEvent/fix(_:)`` events: see the rules of the
/// configuration in ``configure(_:)``. Linux has no OS region monitor: the service emulates the
/// phone's, as the simulated phone does (see ``monitor(_:)``), and the core judges what it reports.
///
/// When gpsd is not there or goes away, the service reconnects on its own after ``GPSDBackoff``
/// delays and reports each failure once as ``Whereabouts/LocationServiceEvent/failure(_:)`` naming
/// `gpsd at HOST:PORT`, the problem and when it retries; the same problem repeated while retrying is
/// only logged. Lines it cannot use are skipped, counted in ``statistics`` and logged.
///
/// The socket is served by a thread of its own, so blocking reads never hold up Swift's cooperative
/// threads. Call ``shutdown()`` to close the connection and finish ``events``.
public final class GPSDLocationService: LocationService {
    /// The service's reports, in order: ``Whereabouts/LocationServiceEvent/authorizationChanged(_:)``
    /// with ``WhereaboutsCore/PlatformAuthorization/unrestricted`` first, then fixes, region
    /// crossings and failures. Buffered without limit; finishes on ``shutdown()``.
    public let events: AsyncStream<LocationServiceEvent>
    /// Where gpsd is expected.
    public let endpoint: GPSDEndpoint
    private let connection: GPSDConnection

    /// Creates the service; it connects as soon as something asks for positions.
    /// - Parameters:
    ///   - host: gpsd's host name or address; `127.0.0.1` by default.
    ///   - port: gpsd's TCP port; 2947 by default.
    ///   - backoff: the delays between reconnection attempts, 0.5 s growing to 30 s by default.
    ///   - connectTimeout: how long one connection attempt may take, in seconds.
    ///   - logger: where skipped lines, connections and reconnections are logged.
    ///   - clock: the engine's clock: region monitoring starts at its time.
    ///   - gpsTime: a clock to set from every fix's time before the fix is delivered (its
    ///     ``GPSTime/clock`` is then the engine's, and `clock` should be it too); `nil` leaves every
    ///     clock alone.
    public init(
        host: String = "127.0.0.1", port: UInt16 = GPSDEndpoint.standardPort, backoff: GPSDBackoff = .standard,
        connectTimeout: Double = 5, logger: Logger = Logger(label: "whereabouts.gpsd"), clock: EngineClock = .system,
        following gpsTime: GPSTime? = nil
    ) {
        let endpoint = GPSDEndpoint(host: host, port: port)
        let (events, continuation) = AsyncStream.makeStream(of: LocationServiceEvent.self)
        self.endpoint = endpoint
        self.events = events
        continuation.yield(.authorizationChanged(.unrestricted))
        connection = GPSDConnection(
            endpoint: endpoint, backoff: backoff, connectTimeout: connectTimeout.isFinite ? max(0.1, connectTimeout) : 5,
            logger: logger, now: clock.now, gpsTime: gpsTime, continuation: continuation)
        connection.start()
    }

    deinit { connection.requestStop() }

    /// What has been read and delivered so far, and how often the connection failed.
    public var statistics: GPSDStatistics { connection.statistics }

    /// Whether the service is connected to gpsd and watching its reports now.
    public var isWatching: Bool { connection.isWatching }

    /// Always ``WhereaboutsCore/PlatformAuthorization/unrestricted``: gpsd has no permission model.
    public func authorization() -> PlatformAuthorization { .unrestricted }

    /// Applies a configuration.
    ///
    /// - Standard updates deliver every fix that lies at least `distanceFilter` metres from the
    ///   last delivered one (every fix when the filter is `nil`). The requested accuracy cannot be
    ///   applied to gpsd and is left to the core's fix filter.
    /// - Significant-change monitoring delivers a fix each time the device has moved 500 m, at most
    ///   every 5 minutes (``WhereaboutsCore/SignificantChangeMonitor``).
    /// - ``WhereaboutsCore/LocationRequest/off`` stops watching gpsd unless regions are monitored or a
    ///   one-shot is pending.
    ///
    /// A changed configuration delivers its first fix whatever the distance.
    ///
    /// The configuration decides about every report handled after this returns: once
    /// ``WhereaboutsCore/LocationRequest/off`` is applied, no fix is yielded to ``events`` unless a
    /// one-shot asks for it. Fixes yielded before the call are not withdrawn; a consumer that is
    /// behind still receives them after the call returns.
    public func configure(_ request: LocationRequest) { connection.configure(request) }

    /// Delivers the next fix gpsd reports, exactly one, even when updates are off (connecting for it
    /// if needed). The accuracy is not applied: gpsd reports what its receiver measures.
    public func requestOneShot(_ accuracy: LocationAccuracy) { connection.requestOneShot() }

    /// Monitors exactly these circles, replacing the previous set, and reports
    /// ``Whereabouts/LocationServiceEvent/regionCrossing(id:state:)`` as the phone's OS would
    /// (``WhereaboutsCore/RegionMonitorEmulation``): the next fix reports the state in a new region,
    /// later fixes report a crossing once they lie beyond the boundary by max(radius/10, 50 m). Keeps
    /// gpsd watched while any region is monitored, even when updates are off.
    public func monitor(_ regions: [MonitoredRegion]) { connection.monitor(regions) }

    /// Does nothing: gpsd has no permission dialog.
    public func requestAuthorization(_ kind: PermissionKind) {}

    /// Does nothing: gpsd has no settings page.
    public func openSettings() {}

    /// Stops watching, closes the connection, finishes ``events`` and returns when all of that is
    /// done. Later calls return at once; the service then delivers nothing more.
    public func shutdown() async { await connection.shutdown() }
}
