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

    /// What fills a block's unused places.
    static let unused = GridEntry(latitudeOffset: 0, longitudeOffset: 0, radius: 0, slot: 0)

    private init(latitudeOffset: Float, longitudeOffset: Float, radius: Float, slot: Int32) {
        self.latitudeOffset = latitudeOffset
        self.longitudeOffset = longitudeOffset
        self.radius = radius
        self.slot = slot
    }

    init(_ region: Region, slot: Int32, corner: (latitude: Double, longitude: Double)) {
        latitudeOffset = Float(region.center.latitude - corner.latitude)
        longitudeOffset = Float(Geodesy.wrapped(region.center.longitude - corner.longitude))
        radius = Float(region.radius)
        self.slot = region.isCircle ? slot : ~slot
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
    let bounds: SIMD16<Float>

    init(cellDegrees: Double) {
        south = -cellDegrees / 2
        height = 2 * cellDegrees / Double(GridCell.stripeCount)
        var bounds = SIMD16<Float>()
        for i in 0..<GridCell.stripeCount { bounds[i] = Float(south + Double(i) * height) }
        self.bounds = bounds
    }
}

/// One grid cell as ``CellTable`` keeps it: where its entries are (sorted by latitude), the largest
/// radius among them (never lowered on removal) and where each latitude stripe begins, so that a
/// query jumps to the band of latitudes that can matter instead of searching for it. It holds no
/// references, so reading it costs no reference counting, and it takes 64 bytes.
struct GridCell: Sendable {
    static let stripeCount = 16
    /// The key of a table slot without a cell: no grid key equals it, since rows and columns are far
    /// inside 32 bits.
    static let vacant = Int64.min
    let key: Int64
    /// Where the cell's block begins in the table's entries.
    var start: Int32 = 0
    /// How many entries the cell lists.
    var count: Int32 = 0
    /// How many entries the block holds.
    var capacity: Int32 = 0
    private(set) var maxRadius: Float = 0
    /// For each stripe, the first entry at or north of its southern edge, counted from `start`
    /// (saturating at 65 535, which only starts a scan earlier than needed).
    var stripeStarts = SIMD16<UInt16>()

    init(key: Int64) {
        self.key = key
    }

    /// Notes that `entry` was listed: the stripes whose southern edge lies north of it now begin one
    /// entry later.
    mutating func noteInserted(_ entry: GridEntry, _ layout: StripeLayout) {
        count += 1
        maxRadius = max(maxRadius, entry.radius.nextUp)
        var first = min(Self.stripeCount, max(0, Int(((Double(entry.latitudeOffset) - layout.south) / layout.height).rounded(.up))))
        while first > 0 && layout.bounds[first - 1] > entry.latitudeOffset { first -= 1 }
        while first < Self.stripeCount && layout.bounds[first] <= entry.latitudeOffset { first += 1 }
        for i in first..<Self.stripeCount where stripeStarts[i] < .max { stripeStarts[i] += 1 }
    }

    /// The stripe starts of `entries`, computed afresh.
    static func stripeStarts(of entries: UnsafeBufferPointer<GridEntry>, _ layout: StripeLayout) -> SIMD16<UInt16> {
        var starts = SIMD16<UInt16>()
        for i in 0..<stripeCount { starts[i] = UInt16(min(Int(UInt16.max), lowerBound(entries, offset: layout.bounds[i]))) }
        return starts
    }

    /// A position among the cell's entries at or before the first entry at or north of the latitude
    /// `offset`.
    @inline(__always)
    func start(atOrSouthOf offset: Double, _ layout: StripeLayout) -> Int {
        guard offset >= Double(layout.bounds[0]) else { return 0 }
        var stripe = min(Self.stripeCount - 1, Int((offset - layout.south) / layout.height))
        while stripe > 0 && Double(layout.bounds[stripe]) > offset { stripe -= 1 }
        return Int(stripeStarts[stripe])
    }

    /// The first position in `entries` (sorted by latitude) at or north of the latitude `offset`.
    static func lowerBound(_ entries: UnsafeBufferPointer<GridEntry>, offset: Float) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].latitudeOffset < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
