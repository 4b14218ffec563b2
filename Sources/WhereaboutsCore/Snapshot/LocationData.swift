import Foundation

/// The snapshot the app keeps in its store, in exactly the story app's shape:
///
/// ```
/// { "lastTriedAt": 1700000000000 | null,
///   "lastLocation": {"id", "latitude", "longitude", "timestamp"} | null,
///   "fence": {"location": {"id", "latitude", "longitude", "timestamp"}, "distanceToDiscovery": metres} | null,
///   "report": {"order": [id, …], "items": {id: {"id", "latitude", "longitude", "timestamp", "accuracy", "dwell"}}},
///   "foregroundPermission": {"isGranted", "updatedAt", "checkedAt", "requestedAt", "canAskAgain"} | null,
///   "backgroundPermission": {"isGranted", "updatedAt", "checkedAt", "requestedAt"} | null,
///   "setupProblems": [{"code", "key", "message"}, …] }
/// ```
///
/// Times are integer JavaScript milliseconds since 1970 (``JavaScriptTime``); a missing optional
/// value is written as `null`, never left out.
public struct LocationData: Sendable, Equatable, Codable {
    /// When the engine last asked the platform for a position, or `nil` if it never did.
    public var lastTriedAt: Date?
    /// The newest known location, or `nil` before the first.
    public var lastLocation: LocationPoint?
    /// The refresh region handed to the OS, or `nil` before the first slot plan.
    public var fence: Fence?
    /// The records waiting for upload, in upload order.
    public var report: Report
    /// The foreground permission record, or `nil` until it was first requested or answered.
    public var foregroundPermission: PermissionRecord?
    /// The background permission record, or `nil` until it was first requested or granted.
    public var backgroundPermission: PermissionRecord?
    /// What the app's iOS set-up lacks and the features left off because of it (``AppSetup``); empty
    /// when nothing is missing and on platforms without an Info.plist.
    public var setupProblems: [SetupProblem]

    /// Creates a snapshot from its parts.
    public init(
        lastTriedAt: Date?, lastLocation: LocationPoint?, fence: Fence?, report: Report, foregroundPermission: PermissionRecord?,
        backgroundPermission: PermissionRecord?, setupProblems: [SetupProblem] = []
    ) {
        self.lastTriedAt = lastTriedAt
        self.lastLocation = lastLocation
        self.fence = fence
        self.report = report
        self.foregroundPermission = foregroundPermission
        self.backgroundPermission = backgroundPermission
        self.setupProblems = setupProblems
    }

    /// Builds the snapshot from what the engine holds.
    ///
    /// - Parameters:
    ///   - lastTriedAt: when the engine last asked for a position.
    ///   - lastLocation: the newest known location (``LocationPoint/init(record:)`` for the newest
    ///     record).
    ///   - fence: the refresh region (``Fence/init(plan:plannedAt:)`` for the Tracker's slot plan).
    ///   - pending: the records not yet acknowledged by a server, in upload order.
    ///   - permissions: the coordinator's records.
    ///   - setupProblems: what the app's set-up lacks (``AppSetup/problems(refreshTask:)``).
    public init(
        lastTriedAt: Date?, lastLocation: LocationPoint?, fence: Fence?, pending: [LocationRecord], permissions: Permissions,
        setupProblems: [SetupProblem] = []
    ) {
        self.init(
            lastTriedAt: lastTriedAt, lastLocation: lastLocation, fence: fence, report: Report(pending: pending),
            foregroundPermission: permissions.foreground, backgroundPermission: permissions.background, setupProblems: setupProblems)
    }

    /// The snapshot of a first launch: nothing tried, nothing known, nothing pending, no permission
    /// ever requested.
    public static let firstLaunch = LocationData(
        lastTriedAt: nil, lastLocation: nil, fence: nil, report: Report(order: [], items: [:]), foregroundPermission: nil,
        backgroundPermission: nil)

    /// The refresh region around the device, as the story app's `fence`.
    public struct Fence: Sendable, Equatable, Codable {
        /// The centre of the refresh region, identified by ``MonitoredRegion/refreshRegionID`` and
        /// timestamped when the plan was made.
        public var location: LocationPoint
        /// Metres from the device (the fence's centre) to the nearest region boundary.
        public var distanceToDiscovery: Double

        /// Creates a fence.
        public init(location: LocationPoint, distanceToDiscovery: Double) {
            self.location = location
            self.distanceToDiscovery = distanceToDiscovery
        }

        /// The fence of a slot plan. `distanceToDiscovery` is the distance to the nearest region
        /// boundary (``SlotPlan/nearestBoundary``), monitored by its own slot or not; with no region
        /// at all it is the refresh region's radius, the distance within which nothing can be
        /// discovered.
        ///
        /// - Parameters:
        ///   - plan: the Tracker's ``Tracker/slotPlan``.
        ///   - plannedAt: when the plan was made: the `now` of the Tracker call that returned the
        ///     ``TrackerEffect/monitor(_:)`` effect carrying it.
        public init(plan: SlotPlan, plannedAt: Date) {
            let refresh = plan.refresh
            self.init(
                location: LocationPoint(
                    id: refresh.id, latitude: refresh.center.latitude, longitude: refresh.center.longitude, timestamp: plannedAt),
                distanceToDiscovery: plan.nearestBoundary ?? refresh.radius)
        }
    }

    /// The upload queue, as the story app's `report`: ids in upload order and the items by id.
    public struct Report: Sendable, Equatable, Codable {
        /// Item ids in upload order, each once.
        public var order: [String]
        /// The items, keyed by id.
        public var items: [String: ReportItem]

        /// Creates a report.
        public init(order: [String], items: [String: ReportItem]) {
            self.order = order
            self.items = items
        }

        /// The report of pending records in upload order; a record whose id appeared earlier in
        /// `pending` is left out.
        public init(pending: [LocationRecord]) {
            var order: [String] = []
            var items: [String: ReportItem] = [:]
            for record in pending {
                let item = ReportItem(record: record)
                guard items[item.id] == nil else { continue }
                order.append(item.id)
                items[item.id] = item
            }
            self.init(order: order, items: items)
        }
    }

    /// One pending record: the four fields of a ``LocationPoint`` plus its accuracy and dwell.
    public struct ReportItem: Sendable, Hashable, Codable {
        /// The record's UUID in lower case.
        public var id: String
        /// Latitude in degrees.
        public var latitude: Double
        /// Longitude in degrees.
        public var longitude: Double
        /// When the position was measured (encoded as JavaScript milliseconds).
        public var timestamp: Date
        /// Horizontal accuracy in metres (68 % confidence radius).
        public var accuracy: Double
        /// Seconds the device stayed there after the fix.
        public var dwell: TimeInterval

        /// Creates an item.
        public init(id: String, latitude: Double, longitude: Double, timestamp: Date, accuracy: Double, dwell: TimeInterval) {
            self.id = id
            self.latitude = latitude
            self.longitude = longitude
            self.timestamp = timestamp
            self.accuracy = accuracy
            self.dwell = dwell
        }

        /// The item of a stored record.
        public init(record: LocationRecord) {
            let point = LocationPoint(record: record)
            self.init(
                id: point.id, latitude: point.latitude, longitude: point.longitude, timestamp: point.timestamp,
                accuracy: record.fix.horizontalAccuracy, dwell: record.dwell)
        }

        /// The four fields an item shares with a ``LocationPoint``, which codes them.
        private var point: LocationPoint { LocationPoint(id: id, latitude: latitude, longitude: longitude, timestamp: timestamp) }

        /// The two fields a ``LocationPoint`` lacks.
        enum CodingKeys: String, CodingKey {
            case accuracy, dwell
        }

        /// Decodes an item whose timestamp is in JavaScript milliseconds.
        public init(from decoder: any Decoder) throws {
            let point = try LocationPoint(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: point.id, latitude: point.latitude, longitude: point.longitude, timestamp: point.timestamp,
                accuracy: try c.decode(Double.self, forKey: .accuracy), dwell: try c.decode(Double.self, forKey: .dwell))
        }

        /// Encodes the item with its timestamp in JavaScript milliseconds.
        public func encode(to encoder: any Encoder) throws {
            try point.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(accuracy, forKey: .accuracy)
            try c.encode(dwell, forKey: .dwell)
        }
    }

    enum CodingKeys: String, CodingKey {
        case lastTriedAt, lastLocation, fence, report, foregroundPermission, backgroundPermission, setupProblems
    }

    /// Decodes a snapshot in the story app's shape.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        lastTriedAt = try c.decodeIfPresent(Int64.self, forKey: .lastTriedAt).map(JavaScriptTime.date)
        lastLocation = try c.decodeIfPresent(LocationPoint.self, forKey: .lastLocation)
        fence = try c.decodeIfPresent(Fence.self, forKey: .fence)
        report = try c.decode(Report.self, forKey: .report)
        foregroundPermission = try c.decodeIfPresent(PermissionRecord.self, forKey: .foregroundPermission)
        backgroundPermission = try c.decodeIfPresent(PermissionRecord.self, forKey: .backgroundPermission)
        setupProblems = try c.decodeIfPresent([SetupProblem].self, forKey: .setupProblems) ?? []
    }

    /// Encodes the snapshot in the story app's shape, with `null` for every missing value; the
    /// foreground record always carries `canAskAgain`, the background record never does.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lastTriedAt.map(JavaScriptTime.milliseconds), forKey: .lastTriedAt)
        try c.encode(lastLocation, forKey: .lastLocation)
        try c.encode(fence, forKey: .fence)
        try c.encode(report, forKey: .report)
        try encode(foregroundPermission, canAskAgain: .written, forKey: .foregroundPermission, in: &c)
        try encode(backgroundPermission, canAskAgain: .omitted, forKey: .backgroundPermission, in: &c)
        try c.encode(setupProblems, forKey: .setupProblems)
    }

    private func encode(
        _ record: PermissionRecord?, canAskAgain: PermissionRecord.CanAskAgainKey, forKey key: CodingKeys,
        in container: inout KeyedEncodingContainer<CodingKeys>
    ) throws {
        guard let record else { return try container.encodeNil(forKey: key) }
        try record.encode(to: container.superEncoder(forKey: key), canAskAgainKey: canAskAgain)
    }

    /// The snapshot as UTF-8 JSON with sorted keys and unescaped slashes: what the bridge sends to
    /// JavaScript, byte for byte stable for golden tests.
    /// - Throws: `EncodingError` if a number is not finite (JSON has no NaN or infinity).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The snapshot as a JSON string (see ``jsonData()``).
    /// - Throws: `EncodingError` if a number is not finite.
    public func jsonString() throws -> String {
        String(decoding: try jsonData(), as: UTF8.self)
    }
}
