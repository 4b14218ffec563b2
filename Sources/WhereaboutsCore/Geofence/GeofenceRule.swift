import Foundation

/// The per-region rule of ``GeofenceEngine``: how the device's state in one region moves on the
/// evidence of a fix, an OS crossing, or a fix that does not reach the region. Pure functions of a
/// ``Status``; where regions are kept and how a fix finds them is the engine's business.
///
/// - A region starts *undetermined*. The first fix with evidence settles it: inside reports an
///   initial enter, outside reports nothing. A fix that does not reach it settles it outside.
/// - Evidence of the other side from a fix that is not decisive (``TransitionRule/strength(of:signedDistance:accuracy:size:)``)
///   is kept *pending*: the next fix that reaches the region and agrees makes the transition; one
///   that disagrees, or does not reach the region, drops it. Tentative evidence asks for a finer
///   fix; firm evidence waits for the next one.
/// - An OS crossing is trusted and drops pending evidence, unless it yields to a fix
///   (``crossingYields(to:region:crossing:at:fixesStreaming:fixesMissed:)``).
/// - A transition starts a new stay, whose dwell is reported once its loitering delay has passed.
public enum GeofenceRule {
    /// How long (seconds) a decisive fix outweighs an OS crossing that contradicts it: the OS reports
    /// crossings up to a few minutes late, so a fix in that window is the fresher word.
    public static let fixPrecedence: TimeInterval = 180
    /// While standard updates deliver fixes fine enough to judge a region (the last one at most this
    /// many seconds old), they decide alone: the OS's late report of the same crossing would only add noise.
    public static let freshFix: TimeInterval = 30

    /// What is known of the device in one region.
    public struct Status: Sendable, Hashable {
        /// The packed form, five bits that ``GeofenceEngine`` keeps per region beside its own.
        let bits: UInt8

        private static let insideBit: UInt8 = 1 << 0
        private static let undeterminedBit: UInt8 = 1 << 1
        private static let dweltBit: UInt8 = 1 << 2
        private static let pendingInsideBit: UInt8 = 1 << 3
        private static let pendingOutsideBit: UInt8 = 1 << 4
        /// The bits a status uses.
        static let mask: UInt8 = 0b1_1111

        init(bits: UInt8) { self.bits = bits & Self.mask }

        /// Creates a status; `pending` counts only when it differs from `side`, `dwelt` only inside.
        public init(side: RegionState?, pending: RegionState? = nil, dwelt: Bool = false) {
            var bits: UInt8 = 0
            switch side {
            case nil: bits |= Self.undeterminedBit
            case .inside?: bits |= Self.insideBit | (dwelt ? Self.dweltBit : 0)
            case .outside?: break
            }
            if let side, let pending, pending != side {
                bits |= pending == .inside ? Self.pendingInsideBit : Self.pendingOutsideBit
            }
            self.bits = bits
        }

        /// No fix or crossing has judged the region yet.
        public static let undetermined = Status(side: nil)

        /// The side the device is on; `nil` while undetermined.
        @inline(__always)
        public var side: RegionState? {
            if bits & Self.undeterminedBit != 0 { return nil }
            return bits & Self.insideBit != 0 ? .inside : .outside
        }

        /// Evidence of the other side from one fix, awaiting a confirming fix.
        @inline(__always)
        public var pending: RegionState? {
            if bits & Self.pendingInsideBit != 0 { return .inside }
            return bits & Self.pendingOutsideBit != 0 ? .outside : nil
        }

        /// Whether the dwell event of the current stay was reported.
        public var dwelt: Bool { bits & Self.dweltBit != 0 }

        /// This status without pending evidence.
        @inline(__always)
        var settled: Status { Status(bits: bits & ~(Self.pendingInsideBit | Self.pendingOutsideBit)) }
    }

    /// A change of side to report as an event.
    public struct Transition: Sendable, Hashable {
        /// Enter or exit.
        public let kind: RegionEventKind
        /// Whether it reports the state found in an undetermined region rather than a crossing.
        public let initial: Bool
    }

    /// What one piece of evidence did to a region.
    public struct Outcome: Sendable, Hashable {
        /// The region's status afterwards.
        public let status: Status
        /// The transition to report, if any.
        public let transition: Transition?
        /// Whether a more accurate fix would have changed the state: the fix fell in the accuracy
        /// margin on the far side from the state, or its tentative evidence awaits confirmation.
        public let undecided: Bool

        init(_ status: Status, _ transition: Transition? = nil, undecided: Bool = false) {
            (self.status, self.transition, self.undecided) = (status, transition, undecided)
        }
    }

    /// The status of a region of size `size` (``Region/size``: its radius, or a polygon's inradius) on a
    /// fix `signedDistance` metres from its outline (negative inside) with `accuracy` metres.
    ///
    /// A fix that is no evidence leaves the region undecided when it lies past the outline on the
    /// other side from the state, `undecidedDepth` of the hysteresis band or more
    /// (``asksFinerFix(_:signedDistance:size:undecidedDepth:)``): at 1, where an exact fix would be
    /// evidence; below 1, while the device is still crossing the band.
    @inline(__always)
    public static func fix(
        _ status: Status, signedDistance s: Double, accuracy: Double, size: Double, undecidedDepth: Double = 1
    ) -> Outcome {
        let evidence = TransitionRule.evidence(signedDistance: s, accuracy: accuracy, size: size)
        guard let side = status.side else {
            guard let evidence else {
                return Outcome(status, undecided: asksFinerFix(.outside, signedDistance: s, size: size, undecidedDepth: undecidedDepth))
            }
            return Outcome(Status(side: evidence), evidence == .inside ? Transition(kind: .enter, initial: true) : nil)
        }
        if evidence == side { return Outcome(status.settled) }
        guard let evidence else {
            return Outcome(
                status,
                undecided: status.pending != nil || asksFinerFix(side, signedDistance: s, size: size, undecidedDepth: undecidedDepth))
        }
        let strength = TransitionRule.strength(of: evidence, signedDistance: s, accuracy: accuracy, size: size)
        guard strength == .decisive || status.pending == evidence else {
            return Outcome(Status(side: side, pending: evidence, dwelt: status.dwelt), undecided: strength == .tentative)
        }
        return Outcome(Status(side: evidence), crossing(to: evidence))
    }

    /// A fix that does not reach the region: it is too far to be inside, so an undetermined region is
    /// settled outside, and pending evidence is dropped.
    public static func unreached(_ status: Status) -> Status {
        status.side == nil ? Status(side: .outside) : status.settled
    }

    /// Applies a crossing to `state` that the OS reported (and that does not yield to a fix).
    public static func osCrossing(_ status: Status, to state: RegionState) -> Outcome {
        guard let side = status.side else {
            return Outcome(Status(side: state), state == .inside ? Transition(kind: .enter, initial: true) : nil)
        }
        guard state != side else { return Outcome(status.settled) }
        return Outcome(Status(side: state), crossing(to: state))
    }

    /// Whether an OS crossing of `region` to `crossing` at `time` is ignored for `fix`, the latest
    /// fix: while fixes fine enough for the region stream (``freshFix``), or when the fix came within
    /// ``fixPrecedence`` seconds and gives evidence of the other side. The OS reports late, so those
    /// fixes are fresher.
    ///
    /// Never when fixes may have missed the crossing: when they broke off within the ``fixPrecedence``
    /// seconds the OS may take to report it (the app was suspended, or positioning was off), and the
    /// OS's circle proves the crossing (``RegionCushion/proves(_:circle:regionRadius:)``). The device
    /// may have crossed while no fix watched and come back since, so a fix on the other side does not
    /// refute the report: it is applied, and the next fix judges the way back.
    ///
    /// - Parameters:
    ///   - fixesStreaming: whether standard updates are on, so fixes keep judging the region.
    ///   - fixesMissed: whether fixes may have missed the crossing.
    public static func crossingYields(
        to fix: Fix?, region: Region, crossing: RegionState, at time: Date, fixesStreaming: Bool, fixesMissed: Bool = false
    ) -> Bool {
        guard !fixesMissed, let fix, fix.horizontalAccuracy <= region.size else { return false }
        let age = time.timeIntervalSince(fix.timestamp)
        if fixesStreaming && age <= freshFix && fix.horizontalAccuracy <= TransitionRule.decisiveAccuracy { return true }
        let evidence = TransitionRule.evidence(
            signedDistance: region.signedDistance(from: fix.coordinate), accuracy: fix.horizontalAccuracy, size: region.size)
        guard age <= fixPrecedence, let evidence else { return false }
        return evidence != crossing
    }

    /// When fixes last reported an enter and an exit of one region.
    public struct FixCrossings: Sendable, Hashable {
        /// The last enter a fix reported.
        public var enter = Date.distantPast
        /// The last exit a fix reported.
        public var exit = Date.distantPast

        /// Creates a record of no crossings.
        public init() {}

        /// The last crossing of `kind`.
        public subscript(kind: RegionEventKind) -> Date {
            get { kind == .enter ? enter : exit }
            set { if kind == .enter { enter = newValue } else { exit = newValue } }
        }

        /// The later of the two.
        public var latest: Date { max(enter, exit) }
    }

    /// Whether an OS crossing to `crossing` at `time` is the late report of one that fixes already
    /// reported: a crossing of the same kind at most ``fixPrecedence`` seconds before. The OS
    /// reports crossings up to minutes late; by then the fixes may have seen the device leave again,
    /// and the OS's word would undo theirs.
    public static func crossingEchoes(_ fixCrossings: FixCrossings?, crossing: RegionState, at time: Date) -> Bool {
        guard let fixCrossings else { return false }
        return time.timeIntervalSince(fixCrossings[crossing == .inside ? .enter : .exit]) <= fixPrecedence
    }

    /// When the dwell of the current stay falls due: `loiteringDelay` after `since` (when the device
    /// came inside), unless it was reported, the device is not inside, or the region has no delay.
    public static func dwellDue(_ status: Status, since: Date, loiteringDelay: TimeInterval?) -> Date? {
        guard status.side == .inside, !status.dwelt, let loiteringDelay else { return nil }
        return since.addingTimeInterval(loiteringDelay)
    }

    /// The status once the dwell of the current stay is reported.
    public static func dwellReported(_ status: Status) -> Status {
        Status(side: status.side, pending: status.pending, dwelt: true)
    }

    /// A settled status restored from a store.
    public static func restored(_ record: RegionStateRecord) -> Status {
        Status(side: record.inside ? .inside : .outside, dwelt: record.dwelt)
    }

    private static func crossing(to state: RegionState) -> Transition {
        Transition(kind: state == .inside ? .enter : .exit, initial: false)
    }

    /// Whether a fix that said nothing, at signed distance `s` from the outline of a region of size
    /// `size`, asks for a finer one while the device is on the `current` side: when it lies past the
    /// outline on the other side, at least `undecidedDepth` of the hysteresis band deep. At a depth of
    /// 1 that is where a fix without accuracy error would show the other side
    /// (``TransitionRule/evidence(signedDistance:accuracy:size:)``), so a more accurate fix would have
    /// said something. Below 1 it asks while the device crosses the band, where the fix after it may
    /// be the only one past the band: a passage that grazes a region is inside it beyond the band for
    /// a few seconds.
    @inline(__always)
    public static func asksFinerFix(
        _ current: RegionState, signedDistance s: Double, size: Double, undecidedDepth: Double
    ) -> Bool {
        let depth = undecidedDepth * TransitionRule.hysteresis(radius: size)
        return current == .outside ? s < 0 && s <= -depth : s > 0 && s >= depth
    }
}
