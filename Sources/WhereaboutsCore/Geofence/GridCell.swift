/// A region's enclosing circle as a grid cell lists it, so a query never reads the region itself to
/// measure it. The centre is kept as single-precision offsets from the cell's south-west corner:
/// within a millimetre, since a listed region lies within a few cells.
struct GridEntry {
    var latitudeOffset: Float
    var longitudeOffset: Float
    /// The radius in metres (single precision is exact to a millimetre up to 100 km).
    var radius: Float
    /// The region's slot, bit-inverted for a polygon.
    private var slot: Int32
    /// Whether the region is this circle (not a polygon it encloses).
    var isCircle: Bool { slot >= 0 }
    /// The region's slot.
    var regionSlot: Int32 { slot >= 0 ? slot : ~slot }

    init(_ region: Region, slot: Int32, corner: (latitude: Double, longitude: Double)) {
        latitudeOffset = Float(region.center.latitude - corner.latitude)
        longitudeOffset = Float(RegionIndex.wrapped(region.center.longitude - corner.longitude))
        radius = Float(region.radius)
        if case .circle = region.shape { self.slot = slot } else { self.slot = ~slot }
    }
}

/// How a cell's latitudes are cut into stripes: ``GridCell/stripeCount`` stripes from half a cell
/// south of the cell to half a cell north of it, where nearly every listed centre lies.
struct StripeLayout: Sendable {
    /// The southern edge of the first stripe, as an offset from the cell's corner in degrees.
    let south: Double
    /// The height of one stripe in degrees.
    let height: Double
    /// Each stripe's southern edge, as single-precision offsets like ``GridEntry/latitudeOffset``.
    let bounds: SIMD32<Float>

    init(cellDegrees: Double) {
        south = -cellDegrees / 2
        height = 2 * cellDegrees / Double(GridCell.stripeCount)
        var bounds = SIMD32<Float>()
        for i in 0..<GridCell.stripeCount { bounds[i] = Float(south + Double(i) * height) }
        self.bounds = bounds
    }
}

/// The regions registered in one grid cell, sorted by latitude, with the largest radius among them
/// (never lowered on removal) and where each latitude stripe begins, so that a query jumps to the
/// band of latitudes that can matter instead of searching for it.
struct GridCell {
    static let stripeCount = 32
    private(set) var entries: [GridEntry] = []
    private(set) var maxRadius: Float = 0
    /// For each stripe, the first entry at or north of its southern edge (saturating at 65 535, which
    /// only starts a scan earlier than needed).
    private var stripeStarts = SIMD32<UInt16>()

    /// Lists `entry`, keeping the latitude order; the stripes whose southern edge lies north of it
    /// now begin one entry later.
    mutating func insert(_ entry: GridEntry, _ layout: StripeLayout) {
        entries.insert(entry, at: Self.lowerBound(entries, offset: entry.latitudeOffset))
        maxRadius = max(maxRadius, entry.radius.nextUp)
        var first = min(Self.stripeCount, max(0, Int(((Double(entry.latitudeOffset) - layout.south) / layout.height).rounded(.up))))
        while first > 0 && layout.bounds[first - 1] > entry.latitudeOffset { first -= 1 }
        while first < Self.stripeCount && layout.bounds[first] <= entry.latitudeOffset { first += 1 }
        for i in first..<Self.stripeCount where stripeStarts[i] < .max { stripeStarts[i] += 1 }
    }

    /// Removes the entries of the region in `slot`.
    mutating func remove(slot: Int32, _ layout: StripeLayout) {
        entries.removeAll { $0.regionSlot == slot }
        for i in 0..<Self.stripeCount {
            stripeStarts[i] = UInt16(min(Int(UInt16.max), Self.lowerBound(entries, offset: layout.bounds[i])))
        }
    }

    /// A position in `entries` at or before the first entry at or north of the latitude `offset`.
    @inline(__always)
    func start(atOrSouthOf offset: Double, _ layout: StripeLayout) -> Int {
        guard offset >= Double(layout.bounds[0]) else { return 0 }
        var stripe = min(Self.stripeCount - 1, Int((offset - layout.south) / layout.height))
        while stripe > 0 && Double(layout.bounds[stripe]) > offset { stripe -= 1 }
        return Int(stripeStarts[stripe])
    }

    /// The first position in `entries` (sorted by latitude) at or north of the latitude `offset`.
    private static func lowerBound(_ entries: [GridEntry], offset: Float) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].latitudeOffset < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
